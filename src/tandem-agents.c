/* tandem-agents.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tandem-agents-private.h"

/**
 * TandemAgents:
 *
 * The agents the person configured, from the "agents" GSettings key, plus
 * the built-in demo agent, which always comes first. Bearer tokens are
 * kept in the keyring (libsecret) and nowhere else: when no keyring
 * answers, storing one fails and transports are made without one.
 */
G_DEFINE_FINAL_TYPE (TandemAgents, tandem_agents, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_ACTIVE_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  AGENT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GPtrArray *
parse_agents (GVariant *value)
{
  GPtrArray *agents = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GVariantIter) iter = NULL;
  const char *id;
  const char *name;
  GVariantIter *settings;

  g_variant_get (value, "a(ssa{ss})", &iter);
  while (g_variant_iter_next (iter, "(&s&sa{ss})", &id, &name, &settings))
    {
      g_autoptr(GStrvBuilder) headers = g_strv_builder_new ();
      g_auto(GStrv) strv = NULL;
      const char *key;
      const char *setting;
      const char *url = NULL;
      guint idle_timeout = TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT;
      guint64 max_frame_size = 0;
      AguiHttpEncoding encoding = AGUI_HTTP_ENCODING_SSE;
      const char *kind = NULL;
      const char *model = NULL;
      const char *system_prompt = NULL;
      double temperature = -1.0;

      while (g_variant_iter_next (settings, "{&s&s}", &key, &setting))
        {
          if (strcmp (key, "url") == 0)
            url = setting;
          else if (strcmp (key, "kind") == 0)
            kind = setting;
          else if (strcmp (key, "model") == 0)
            model = setting;
          else if (strcmp (key, "system-prompt") == 0)
            system_prompt = setting;
          else if (strcmp (key, "temperature") == 0)
            {
              char *end = NULL;
              double number = g_ascii_strtod (setting, &end);

              /* A hand-edited value that is no number keeps the server's default. */
              if (end != setting && *end == '\0' && number >= 0 && number <= 2)
                temperature = number;
            }
          else if (strcmp (key, "idle-timeout") == 0)
            {
              guint64 seconds;

              /* A hand-edited value that is no number keeps the default. */
              if (g_ascii_string_to_unsigned (setting, 10, 0, TANDEM_AGENT_MAX_IDLE_TIMEOUT, &seconds, NULL))
                idle_timeout = (guint) seconds;
            }
          else if (strcmp (key, "max-frame-size") == 0)
            g_ascii_string_to_unsigned (setting, 10, 0, G_MAXSIZE, &max_frame_size, NULL);
          else if (strcmp (key, "encoding") == 0)
            /* Anything else keeps SSE, which every server speaks. */
            encoding = strcmp (setting, "protobuf") == 0 ? AGUI_HTTP_ENCODING_PROTOBUF : AGUI_HTTP_ENCODING_SSE;
          else if (g_str_has_prefix (key, "header:"))
            {
              g_autofree char *header = g_strdup_printf ("%s: %s", key + strlen ("header:"), setting);

              g_strv_builder_add (headers, header);
            }
        }

      strv = g_strv_builder_end (headers);

      if (id[0] == '\0' || strcmp (id, TANDEM_AGENTS_DEMO_ID) == 0)
        g_debug ("Ignoring an agent with the reserved id “%s”", id);
      else if (g_strcmp0 (kind, "openai") == 0)
        {
          g_ptr_array_add (agents, tandem_agent_new_openai (id, name, url ? url : "", (const char * const *) strv,
                                                            model ? model : "", system_prompt, temperature,
                                                            idle_timeout));
        }
      else
        {
          g_autoptr(TandemAgent) agent = NULL;

          agent = tandem_agent_new_full (id, name, url ? url : "", (const char * const *) strv,
                                         idle_timeout, max_frame_size);
          g_ptr_array_add (agents, tandem_agent_with_encoding (agent, encoding));
        }

      /* The strings above point into settings, so free it last. */
      g_variant_iter_free (settings);
    }

  return agents;
}

static GVariant *
agent_to_variant (TandemAgent *agent)
{
  GVariantBuilder settings;

  g_variant_builder_init (&settings, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&settings, "{ss}", "url", agent->url ? agent->url : "");

  /* Only what differs from the defaults, so that older settings and
   * newer ones read the same. */
  if (agent->idle_timeout != TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT)
    {
      g_autofree char *seconds = g_strdup_printf ("%u", agent->idle_timeout);

      g_variant_builder_add (&settings, "{ss}", "idle-timeout", seconds);
    }
  if (agent->max_frame_size != 0)
    {
      g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, agent->max_frame_size);

      g_variant_builder_add (&settings, "{ss}", "max-frame-size", bytes);
    }
  if (agent->encoding == AGUI_HTTP_ENCODING_PROTOBUF)
    g_variant_builder_add (&settings, "{ss}", "encoding", "protobuf");
  if (agent->model != NULL)
    {
      g_variant_builder_add (&settings, "{ss}", "kind", "openai");
      g_variant_builder_add (&settings, "{ss}", "model", agent->model);
      if (agent->system_prompt != NULL)
        g_variant_builder_add (&settings, "{ss}", "system-prompt", agent->system_prompt);
      if (agent->temperature >= 0)
        {
          char temperature[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (temperature, sizeof temperature, "%.2f", agent->temperature);
          g_variant_builder_add (&settings, "{ss}", "temperature", temperature);
        }
    }

  for (guint i = 0; agent->headers[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;
      g_autofree char *key = NULL;

      if (!_tandem_agent_split_header (agent->headers[i], &name, &value))
        continue;

      key = g_strconcat ("header:", name, NULL);
      g_variant_builder_add (&settings, "{ss}", key, value);
    }

  return g_variant_new ("(ss@a{ss})", agent->id, agent->name, g_variant_builder_end (&settings));
}

static gboolean
tandem_agents_has (TandemAgents *self,
                   const char   *id)
{
  return tandem_agents_lookup (self, id) != NULL;
}

static void
tandem_agents_update_active_id (TandemAgents *self)
{
  g_autofree char *stored = g_settings_get_string (self->settings, "active-agent");
  const char *active = TANDEM_AGENTS_DEMO_ID;

  if (tandem_agents_has (self, stored))
    active = stored;

  if (g_strcmp0 (self->active_id, active) != 0)
    {
      g_free (self->active_id);
      self->active_id = g_strdup (active);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE_ID]);
    }
}

static void
tandem_agents_reload (TandemAgents *self)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "agents");
  g_autoptr(GPtrArray) agents = parse_agents (value);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  gboolean same = n_items == agents->len + 1;

  for (guint i = 0; same && i < agents->len; i++)
    {
      g_autoptr(TandemAgent) current = g_list_model_get_item (G_LIST_MODEL (self->model), i + 1);

      same = _tandem_agent_equal (current, g_ptr_array_index (agents, i));
    }

  if (!same)
    {
      g_autoptr(GPtrArray) before = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 1; i < n_items; i++)
        g_ptr_array_add (before, g_list_model_get_item (G_LIST_MODEL (self->model), i));
      g_list_store_splice (self->model, 1, n_items - 1, agents->pdata, agents->len);

      /* Told once the model holds the new settings, so that a transport
       * made on hearing it is made from them */
      for (guint i = 0; i < before->len; i++)
        {
          TandemAgent *old = g_ptr_array_index (before, i);
          g_autoptr(TandemAgent) now = _tandem_agents_ref_agent (self, old->id);

          if (now == NULL || !_tandem_agent_equal (old, now))
            g_signal_emit (self, signals[AGENT_CHANGED], 0, old->id);
        }
    }

  tandem_agents_update_active_id (self);
}

static void
on_settings_changed_cb (TandemAgents *self,
                        const char   *key,
                        GSettings    *settings)
{
  g_assert (TANDEM_IS_AGENTS (self));

  if (g_strcmp0 (key, "agents") == 0)
    tandem_agents_reload (self);
  else if (g_strcmp0 (key, "active-agent") == 0)
    tandem_agents_update_active_id (self);
}

static void
tandem_agents_constructed (GObject *object)
{
  TandemAgents *self = TANDEM_AGENTS (object);

  G_OBJECT_CLASS (tandem_agents_parent_class)->constructed (object);

  g_assert (G_IS_SETTINGS (self->settings));

  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (on_settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  tandem_agents_reload (self);
}

static void
tandem_agents_dispose (GObject *object)
{
  TandemAgents *self = TANDEM_AGENTS (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (tandem_agents_parent_class)->dispose (object);
}

static void
tandem_agents_finalize (GObject *object)
{
  TandemAgents *self = TANDEM_AGENTS (object);

  g_clear_object (&self->model);
  g_clear_pointer (&self->active_id, g_free);

  G_OBJECT_CLASS (tandem_agents_parent_class)->finalize (object);
}

static void
tandem_agents_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TandemAgents *self = TANDEM_AGENTS (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_ACTIVE_ID:
      g_value_set_string (value, tandem_agents_get_active_id (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agents_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TandemAgents *self = TANDEM_AGENTS (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    case PROP_ACTIVE_ID:
      tandem_agents_set_active_id (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agents_class_init (TandemAgentsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = tandem_agents_constructed;
  object_class->dispose = tandem_agents_dispose;
  object_class->finalize = tandem_agents_finalize;
  object_class->get_property = tandem_agents_get_property;
  object_class->set_property = tandem_agents_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * TandemAgents:active-id:
   *
   * The id of the agent new conversations use; "demo" when the one chosen
   * no longer exists.
   */
  properties[PROP_ACTIVE_ID] =
    g_param_spec_string ("active-id", NULL, NULL, TANDEM_AGENTS_DEMO_ID,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TandemAgents::agent-changed:
   * @self: the agents
   * @id: the agent's id
   *
   * The settings of the agent with @id were saved with a change, the
   * agent was removed, or its token was stored or forgotten: a transport
   * made for it before is out of date.
   */
  signals[AGENT_CHANGED] =
    g_signal_new ("agent-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
tandem_agents_init (TandemAgents *self)
{
  g_autoptr(TandemAgent) demo = tandem_agent_new (TANDEM_AGENTS_DEMO_ID, _("Demo agent (built in)"), NULL, NULL);

  self->model = g_list_store_new (TANDEM_TYPE_AGENT);
  g_queue_init (&self->keyring_writes);
  g_list_store_append (self->model, demo);
  self->active_id = g_strdup (TANDEM_AGENTS_DEMO_ID);
}

/**
 * tandem_agents_new:
 * @settings: the app's settings, with the "agents" and "active-agent" keys
 *
 * Returns: (transfer full): the agents configured in @settings
 */
TandemAgents *
tandem_agents_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (TANDEM_TYPE_AGENTS,
                       "settings", settings,
                       NULL);
}

/**
 * tandem_agents_get_model:
 * @self: the agents
 *
 * Returns: (transfer none): a list of [class@Tandem.Agent], the demo agent
 *   first, kept up to date with the settings
 */
GListModel *
tandem_agents_get_model (TandemAgents *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);

  return G_LIST_MODEL (self->model);
}

TandemAgent *
_tandem_agents_ref_agent (TandemAgents *self,
                          const char   *id)
{
  guint n_items;

  if (id == NULL)
    return NULL;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(TandemAgent) agent = g_list_model_get_item (G_LIST_MODEL (self->model), i);

      if (strcmp (agent->id, id) == 0)
        return g_steal_pointer (&agent);
    }

  return NULL;
}

/**
 * tandem_agents_lookup:
 * @self: the agents
 * @id: an agent's id
 *
 * Returns: (transfer none) (nullable): the agent with @id, valid until
 *   the agents change
 */
TandemAgent *
tandem_agents_lookup (TandemAgents *self,
                      const char   *id)
{
  g_autoptr(TandemAgent) agent = NULL;

  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);

  /* The model keeps its own reference. */
  agent = _tandem_agents_ref_agent (self, id);

  return agent;
}

const char *
tandem_agents_get_active_id (TandemAgents *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);

  return self->active_id;
}

/**
 * tandem_agents_set_active_id:
 * @self: the agents
 * @id: an agent's id, or "demo"
 *
 * Chooses the agent new conversations use. An id no agent has selects
 * the demo agent.
 */
void
tandem_agents_set_active_id (TandemAgents *self,
                             const char   *id)
{
  g_return_if_fail (TANDEM_IS_AGENTS (self));

  if (id == NULL || !tandem_agents_has (self, id))
    id = TANDEM_AGENTS_DEMO_ID;

  g_settings_set_string (self->settings, "active-agent", id);
  tandem_agents_update_active_id (self);
}

/**
 * tandem_agents_check_name:
 * @name: an agent's name
 * @error: return location for a #GError
 *
 * Returns: whether @name will do; %G_IO_ERROR_INVALID_ARGUMENT with a
 *   translated message if not
 */
gboolean
tandem_agents_check_name (const char  *name,
                          GError     **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (name ? name : ""));

  if (stripped[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Enter a name for the agent"));
      return FALSE;
    }

  return TRUE;
}

/**
 * tandem_agents_check_url:
 * @url: an agent's endpoint
 * @error: return location for a #GError
 *
 * Accepts what [ctor@Agui.HttpTransport.new] accepts: an `http`
 * or `https` URL with a host.
 *
 * Returns: whether @url will do; %G_IO_ERROR_INVALID_ARGUMENT with a
 *   translated message if not
 */
gboolean
tandem_agents_check_url (const char  *url,
                         GError     **error)
{
  g_autoptr(AguiHttpTransport) transport = NULL;
  g_autoptr(GError) local_error = NULL;

  if (url == NULL || url[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Enter the agent’s URL"));
      return FALSE;
    }

  if (!(transport = agui_http_transport_new (url, &local_error)))
    {
      g_debug ("Rejecting the URL “%s”: %s", url, local_error->message);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Enter a web address starting with http:// or https://"));
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_header_line (const char *line)
{
  const char * const headers[] = { line, NULL };
  g_autoptr(AguiHttpTransport) transport = NULL;

  transport = g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, NULL,
                              "url", "http://localhost/",
                              "headers", headers,
                              NULL);

  return transport != NULL;
}

/**
 * tandem_agents_check_header:
 * @name: a header name
 * @value: its value
 * @error: return location for a #GError
 *
 * Applies the rules of [property@Agui.HttpTransport:headers]: the name
 * is an RFC 7230 token, the value has no line breaks or other controls.
 *
 * Returns: whether the header will do; %G_IO_ERROR_INVALID_ARGUMENT with
 *   a translated message if not
 */
gboolean
tandem_agents_check_header (const char  *name,
                            const char  *value,
                            GError     **error)
{
  g_autofree char *name_line = NULL;
  g_autofree char *value_line = NULL;

  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  /* The transport reads "Name: value" lines, trimming around the name:
   * a colon or a space in the name would go unnoticed there. */
  name_line = g_strconcat (name, ": ", NULL);
  if (strpbrk (name, ": \t") != NULL || !check_header_line (name_line))
    {
      if (name[0] == '\0')
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                             _("Enter a header name"));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     _("“%s” is not a valid header name; use letters, digits and - without spaces"), name);
      return FALSE;
    }

  value_line = g_strconcat ("X: ", value, NULL);
  if (!check_header_line (value_line))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The value of “%s” cannot contain line breaks or control characters"), name);
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_agent (TandemAgent  *agent,
             GError      **error)
{
  if (tandem_agent_is_demo (agent) || agent->id[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The id “%s” is reserved"), agent->id);
      return FALSE;
    }

  if (!tandem_agents_check_name (agent->name, error) ||
      !tandem_agents_check_url (agent->url, error))
    return FALSE;

  if (agent->model != NULL)
    {
      g_autofree char *model = g_strstrip (g_strdup (agent->model));

      if (model[0] == '\0')
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("Choose a model: refresh the list to see what the server offers"));
          return FALSE;
        }
    }

  for (guint i = 0; agent->headers[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (!_tandem_agent_split_header (agent->headers[i], &name, &value))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("A header must be written as “Name: value”"));
          return FALSE;
        }

      if (!tandem_agents_check_header (name, value, error))
        return FALSE;
    }

  return TRUE;
}

void
_tandem_agents_write (TandemAgents *self,
                      TandemAgent  *replace,
                      const char   *remove_id)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->settings, "agents");
  g_autoptr(GPtrArray) agents = parse_agents (value);
  GVariantBuilder builder;
  gboolean replaced = FALSE;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssa{ss})"));

  for (guint i = 0; i < agents->len; i++)
    {
      TandemAgent *agent = g_ptr_array_index (agents, i);

      if (remove_id != NULL && strcmp (agent->id, remove_id) == 0)
        continue;

      if (replace != NULL && strcmp (agent->id, replace->id) == 0)
        {
          if (!replaced)
            g_variant_builder_add_value (&builder, agent_to_variant (replace));
          replaced = TRUE;
          continue;
        }

      g_variant_builder_add_value (&builder, agent_to_variant (agent));
    }

  if (replace != NULL && !replaced)
    g_variant_builder_add_value (&builder, agent_to_variant (replace));

  g_settings_set_value (self->settings, "agents", g_variant_builder_end (&builder));
  tandem_agents_reload (self);
}

/**
 * tandem_agents_save:
 * @self: the agents
 * @agent: an agent, new or with the id of one to replace
 * @error: return location for a #GError
 *
 * Checks @agent (a name, an `http` or `https` URL, valid headers) and
 * writes it to the settings, in place of the agent with its id or last.
 * Nothing is written when a check fails.
 *
 * Returns: whether @agent was saved; %G_IO_ERROR_INVALID_ARGUMENT with a
 *   translated message if not
 */
gboolean
tandem_agents_save (TandemAgents  *self,
                    TandemAgent   *agent,
                    GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), FALSE);
  g_return_val_if_fail (TANDEM_IS_AGENT (agent), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_agent (agent, error))
    return FALSE;

  _tandem_agents_write (self, agent, NULL);

  return TRUE;
}

void
_tandem_agents_emit_agent_changed (TandemAgents *self,
                                   const char   *id)
{
  g_signal_emit (self, signals[AGENT_CHANGED], 0, id);
}
