/* tandem-agents.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libsecret/secret.h>

#include "tandem-agents.h"

/**
 * TandemAgent:
 *
 * One agent Tandem can talk to: an id, a name, and for a remote agent its
 * URL, extra HTTP headers, each as `Name: value`, and how its answers are
 * read: the idle timeout, the largest event accepted and the encoding asked
 * for (SSE unless the person picks the binary one). Immutable: editing an
 * agent saves a new one with the same id.
 *
 * Its bearer token is not part of it; it lives in the keyring only.
 *
 * An agent may instead be a model on an OpenAI-compatible server (Ollama,
 * llama.cpp, LM Studio, vLLM): its URL is then the server's base URL, and
 * it has a model, a system prompt and a temperature; its token is the
 * server's API key, and it runs in Tandem as an [class@Agui.OpenaiAgent].
 */
struct _TandemAgent
{
  GObject   parent_instance;
  char     *id;
  char     *name;
  char     *url;
  char    **headers;
  guint64          max_frame_size;
  guint            idle_timeout;
  AguiHttpEncoding encoding;
  /* An OpenAI-compatible server's model, when it has one */
  char            *model;
  char            *system_prompt;
  double           temperature;
};

G_DEFINE_FINAL_TYPE (TandemAgent, tandem_agent, G_TYPE_OBJECT)

enum {
  AGENT_PROP_0,
  AGENT_PROP_ID,
  AGENT_PROP_NAME,
  AGENT_PROP_URL,
  AGENT_PROP_HEADERS,
  AGENT_PROP_IS_DEMO,
  AGENT_PROP_IDLE_TIMEOUT,
  AGENT_PROP_MAX_FRAME_SIZE,
  AGENT_PROP_ENCODING,
  AGENT_PROP_MODEL,
  AGENT_PROP_SYSTEM_PROMPT,
  AGENT_PROP_TEMPERATURE,
  AGENT_N_PROPS
};

static GParamSpec *agent_properties[AGENT_N_PROPS];

static void
tandem_agent_finalize (GObject *object)
{
  TandemAgent *self = TANDEM_AGENT (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->headers, g_strfreev);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->system_prompt, g_free);

  G_OBJECT_CLASS (tandem_agent_parent_class)->finalize (object);
}

static void
tandem_agent_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TandemAgent *self = TANDEM_AGENT (object);

  switch (prop_id)
    {
    case AGENT_PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case AGENT_PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case AGENT_PROP_URL:
      g_value_set_string (value, self->url);
      break;

    case AGENT_PROP_HEADERS:
      g_value_set_boxed (value, self->headers);
      break;

    case AGENT_PROP_IS_DEMO:
      g_value_set_boolean (value, tandem_agent_is_demo (self));
      break;

    case AGENT_PROP_IDLE_TIMEOUT:
      g_value_set_uint (value, self->idle_timeout);
      break;

    case AGENT_PROP_MAX_FRAME_SIZE:
      g_value_set_uint64 (value, self->max_frame_size);
      break;

    case AGENT_PROP_ENCODING:
      g_value_set_enum (value, self->encoding);
      break;

    case AGENT_PROP_MODEL:
      g_value_set_string (value, self->model);
      break;

    case AGENT_PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;

    case AGENT_PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  TandemAgent *self = TANDEM_AGENT (object);

  switch (prop_id)
    {
    case AGENT_PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case AGENT_PROP_NAME:
      self->name = g_value_dup_string (value);
      break;

    case AGENT_PROP_URL:
      self->url = g_value_dup_string (value);
      break;

    case AGENT_PROP_HEADERS:
      self->headers = g_value_dup_boxed (value);
      break;

    case AGENT_PROP_IDLE_TIMEOUT:
      self->idle_timeout = g_value_get_uint (value);
      break;

    case AGENT_PROP_MAX_FRAME_SIZE:
      self->max_frame_size = g_value_get_uint64 (value);
      break;

    case AGENT_PROP_ENCODING:
      self->encoding = g_value_get_enum (value);
      break;

    case AGENT_PROP_MODEL:
      self->model = g_value_dup_string (value);
      break;

    case AGENT_PROP_SYSTEM_PROMPT:
      self->system_prompt = g_value_dup_string (value);
      break;

    case AGENT_PROP_TEMPERATURE:
      self->temperature = g_value_get_double (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_agent_class_init (TandemAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tandem_agent_finalize;
  object_class->get_property = tandem_agent_get_property;
  object_class->set_property = tandem_agent_set_property;

  agent_properties[AGENT_PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_URL] =
    g_param_spec_string ("url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_HEADERS] =
    g_param_spec_boxed ("headers", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_IS_DEMO] =
    g_param_spec_boolean ("is-demo", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  /* Seconds, 0 for none. */
  agent_properties[AGENT_PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL, 0, TANDEM_AGENT_MAX_IDLE_TIMEOUT, TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* Bytes, 0 for the decoder's default. */
  agent_properties[AGENT_PROP_MAX_FRAME_SIZE] =
    g_param_spec_uint64 ("max-frame-size", NULL, NULL, 0, G_MAXSIZE, 0,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_ENCODING] =
    g_param_spec_enum ("encoding", NULL, NULL, AGUI_TYPE_HTTP_ENCODING, AGUI_HTTP_ENCODING_SSE,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /* Set for a model on an OpenAI-compatible server, NULL for an AG-UI agent */
  agent_properties[AGENT_PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  agent_properties[AGENT_PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* Below 0 for the server's default */
  agent_properties[AGENT_PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, -1.0, 2.0, -1.0,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, AGENT_N_PROPS, agent_properties);
}

static void
tandem_agent_init (TandemAgent *self)
{
  self->temperature = -1.0;
}

/**
 * tandem_agent_new:
 * @id: the agent's id, unique among the agents
 * @name: its name, as the person gave it
 * @url: (nullable): its endpoint; %NULL for the demo agent
 * @headers: (nullable) (array zero-terminated=1): extra headers as `Name: value`
 *
 * Returns: (transfer full): a new agent
 */
TandemAgent *
tandem_agent_new (const char         *id,
                  const char         *name,
                  const char         *url,
                  const char * const *headers)
{
  const char * const empty[] = { NULL };

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (TANDEM_TYPE_AGENT,
                       "id", id,
                       "name", name,
                       "url", url,
                       "headers", headers ? headers : empty,
                       NULL);
}

/**
 * tandem_agent_new_full:
 * @id: the agent's id, unique among the agents
 * @name: its name, as the person gave it
 * @url: (nullable): its endpoint; %NULL for the demo agent
 * @headers: (nullable) (array zero-terminated=1): extra headers as `Name: value`
 * @idle_timeout: seconds the agent may send nothing, 0 for no limit
 * @max_frame_size: the largest event accepted in bytes, 0 for the default
 *
 * Returns: (transfer full): a new agent
 */
TandemAgent *
tandem_agent_new_full (const char         *id,
                       const char         *name,
                       const char         *url,
                       const char * const *headers,
                       guint               idle_timeout,
                       gsize               max_frame_size)
{
  const char * const empty[] = { NULL };

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (TANDEM_TYPE_AGENT,
                       "id", id,
                       "name", name,
                       "url", url,
                       "headers", headers ? headers : empty,
                       "idle-timeout", MIN (idle_timeout, TANDEM_AGENT_MAX_IDLE_TIMEOUT),
                       "max-frame-size", (guint64) max_frame_size,
                       NULL);
}

/**
 * tandem_agent_with_encoding:
 * @self: an agent
 * @encoding: the encoding to ask the agent for
 *
 * Returns: (transfer full): an agent like @self that asks for @encoding
 */
TandemAgent *
tandem_agent_with_encoding (TandemAgent      *self,
                            AguiHttpEncoding  encoding)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return g_object_new (TANDEM_TYPE_AGENT,
                       "id", self->id,
                       "name", self->name,
                       "url", self->url,
                       "headers", self->headers,
                       "idle-timeout", self->idle_timeout,
                       "max-frame-size", self->max_frame_size,
                       "encoding", encoding,
                       "model", self->model,
                       "system-prompt", self->system_prompt,
                       "temperature", self->temperature,
                       NULL);
}

/**
 * tandem_agent_new_openai:
 * @id: the agent's id, unique among the agents
 * @name: its name, as the person gave it
 * @base_url: the server's base URL, such as `http://localhost:11434/v1`
 * @headers: (nullable) (array zero-terminated=1): extra headers as `Name: value`
 * @model: the model to ask
 * @system_prompt: (nullable): what the model is told first
 * @temperature: from 0 to 2, below 0 for the server's default
 * @idle_timeout: seconds the server may send nothing, 0 for no limit
 *
 * Returns: (transfer full): a new agent that is a model on an
 *   OpenAI-compatible server
 */
TandemAgent *
tandem_agent_new_openai (const char         *id,
                         const char         *name,
                         const char         *base_url,
                         const char * const *headers,
                         const char         *model,
                         const char         *system_prompt,
                         double              temperature,
                         guint               idle_timeout)
{
  const char * const empty[] = { NULL };

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (model != NULL, NULL);

  return g_object_new (TANDEM_TYPE_AGENT,
                       "id", id,
                       "name", name,
                       "url", base_url,
                       "headers", headers ? headers : empty,
                       "idle-timeout", MIN (idle_timeout, TANDEM_AGENT_MAX_IDLE_TIMEOUT),
                       "model", model,
                       "system-prompt", system_prompt && system_prompt[0] ? system_prompt : NULL,
                       "temperature", temperature < 0 ? -1.0 : MIN (temperature, 2.0),
                       NULL);
}

gboolean
tandem_agent_is_openai (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), FALSE);

  return self->model != NULL;
}

const char *
tandem_agent_get_model (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return self->model;
}

const char *
tandem_agent_get_system_prompt (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return self->system_prompt;
}

double
tandem_agent_get_temperature (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), -1.0);

  return self->temperature;
}

AguiHttpEncoding
tandem_agent_get_encoding (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), AGUI_HTTP_ENCODING_SSE);

  return self->encoding;
}

guint
tandem_agent_get_idle_timeout (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), 0);

  return self->idle_timeout;
}

gsize
tandem_agent_get_max_frame_size (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), 0);

  return self->max_frame_size;
}

const char *
tandem_agent_get_id (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return self->id;
}

const char *
tandem_agent_get_name (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return self->name;
}

/**
 * tandem_agent_get_url:
 * @self: an agent
 *
 * Returns: (nullable): the agent's endpoint, %NULL for the demo agent
 */
const char *
tandem_agent_get_url (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return self->url;
}

/**
 * tandem_agent_get_headers:
 * @self: an agent
 *
 * Returns: (transfer none) (array zero-terminated=1): the extra headers,
 *   each as `Name: value`
 */
const char * const *
tandem_agent_get_headers (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);

  return (const char * const *) self->headers;
}

gboolean
tandem_agent_is_demo (TandemAgent *self)
{
  g_return_val_if_fail (TANDEM_IS_AGENT (self), FALSE);

  return g_strcmp0 (self->id, TANDEM_AGENTS_DEMO_ID) == 0;
}

static gboolean
tandem_agent_equal (TandemAgent *a,
                    TandemAgent *b)
{
  return g_strcmp0 (a->id, b->id) == 0 &&
         g_strcmp0 (a->name, b->name) == 0 &&
         g_strcmp0 (a->url, b->url) == 0 &&
         g_strv_equal ((const char * const *) a->headers, (const char * const *) b->headers) &&
         a->idle_timeout == b->idle_timeout &&
         a->max_frame_size == b->max_frame_size &&
         a->encoding == b->encoding &&
         g_strcmp0 (a->model, b->model) == 0 &&
         g_strcmp0 (a->system_prompt, b->system_prompt) == 0 &&
         a->temperature == b->temperature;
}

/**
 * TandemAgents:
 *
 * The agents the person configured, from the "agents" GSettings key, plus
 * the built-in demo agent, which always comes first. Bearer tokens are
 * kept in the keyring (libsecret) and nowhere else: when no keyring
 * answers, storing one fails and transports are made without one.
 */
struct _TandemAgents
{
  GObject       parent_instance;
  GSettings    *settings;
  GListStore   *model;
  char         *active_id;

  /* Keyring writes, one at a time: libsecret's file backend (the one a
   * Flatpak uses) replaces its file against the tag of its last write, so
   * a second write begun before the first is on disk fails with "The file
   * was externally modified". The head is the write under way. */
  GQueue        keyring_writes;
};

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

#define KEYRING_TIMEOUT_SECONDS 30
#define CONNECT_TIMEOUT_MS 30000

static const SecretSchema token_schema = {
  "io.github.tandemdesk.Tandem.Token",
  SECRET_SCHEMA_NONE,
  {
    { "agent-id", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

/* Splits `Name: value`; the name is kept as written (a space in it makes
 * it invalid), the value loses the whitespace around it. */
static gboolean
split_header (const char  *header,
              char       **name,
              char       **value)
{
  const char *colon = strchr (header, ':');

  if (colon == NULL)
    return FALSE;

  *name = g_strndup (header, colon - header);
  *value = g_strstrip (g_strdup (colon + 1));

  return TRUE;
}

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

      if (!split_header (agent->headers[i], &name, &value))
        continue;

      key = g_strconcat ("header:", name, NULL);
      g_variant_builder_add (&settings, "{ss}", key, value);
    }

  return g_variant_new ("(ss@a{ss})", agent->id, agent->name, g_variant_builder_end (&settings));
}

static TandemAgent *tandem_agents_ref_agent (TandemAgents *self,
                                             const char   *id);

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

      same = tandem_agent_equal (current, g_ptr_array_index (agents, i));
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
          g_autoptr(TandemAgent) now = tandem_agents_ref_agent (self, old->id);

          if (now == NULL || !tandem_agent_equal (old, now))
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

static TandemAgent *
tandem_agents_ref_agent (TandemAgents *self,
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
  agent = tandem_agents_ref_agent (self, id);

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

      if (!split_header (agent->headers[i], &name, &value))
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

static void
tandem_agents_write (TandemAgents *self,
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

  tandem_agents_write (self, agent, NULL);

  return TRUE;
}

/* Keyring calls: our own cancellable, cancelled by the caller's or after
 * a timeout, so that a keyring that never answers cannot hold a run. */

typedef void (*TokenFound) (GTask  *task,
                            char   *token,
                            GError *error);

typedef struct
{
  TokenFound    found;
  gulong        lookup_cancelled_id;
  gboolean      answered;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  guint         timeout_id;
  char         *id;
  char         *label;
  char         *token;
  TandemAgent  *agent;
} KeyringCall;

static void
keyring_call_free (KeyringCall *call)
{
  g_cancellable_disconnect (call->cancellable, call->lookup_cancelled_id);
  if (call->caller_cancellable != NULL)
    g_cancellable_disconnect (call->caller_cancellable, call->caller_cancelled_id);
  g_clear_handle_id (&call->timeout_id, g_source_remove);
  g_clear_object (&call->caller_cancellable);
  g_clear_object (&call->cancellable);
  g_clear_pointer (&call->id, g_free);
  g_clear_pointer (&call->label, g_free);
  if (call->token != NULL)
    secret_password_wipe (call->token);
  g_clear_pointer (&call->token, g_free);
  g_clear_object (&call->agent);
  g_free (call);
}

static void
on_caller_cancelled_cb (GCancellable *caller_cancellable,
                        GCancellable *cancellable)
{
  g_cancellable_cancel (cancellable);
}

static gboolean
on_keyring_timeout_cb (gpointer user_data)
{
  KeyringCall *call = user_data;

  call->timeout_id = 0;
  g_debug ("The keyring did not answer within %d seconds", KEYRING_TIMEOUT_SECONDS);
  g_cancellable_cancel (call->cancellable);

  return G_SOURCE_REMOVE;
}

static KeyringCall *
keyring_call_new (GCancellable *caller_cancellable,
                  const char   *id)
{
  KeyringCall *call = g_new0 (KeyringCall, 1);

  call->cancellable = g_cancellable_new ();
  call->id = g_strdup (id);
  call->timeout_id = g_timeout_add_seconds (KEYRING_TIMEOUT_SECONDS, on_keyring_timeout_cb, call);

  if (caller_cancellable != NULL)
    {
      call->caller_cancellable = g_object_ref (caller_cancellable);
      call->caller_cancelled_id = g_cancellable_connect (caller_cancellable,
                                                         G_CALLBACK (on_caller_cancelled_cb),
                                                         g_object_ref (call->cancellable),
                                                         g_object_unref);
    }

  return call;
}

static GHashTable *
token_attributes (const char *id)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (attributes, (gpointer) "agent-id", (gpointer) id);

  return attributes;
}

static void keyring_write_start (GTask *task);

static void
tandem_agents_store_token_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  TandemAgents *self = g_task_get_source_object (task);
  GTask *next;

  if (call->token != NULL)
    ok = secret_password_store_finish (result, &error);
  else
    ok = secret_password_clear_finish (result, &error) || error == NULL;

  g_assert (g_queue_peek_head (&self->keyring_writes) == task);
  g_object_unref (g_queue_pop_head (&self->keyring_writes));
  next = g_queue_peek_head (&self->keyring_writes);
  if (next != NULL)
    keyring_write_start (g_object_ref (next));

  if (ok)
    {
      g_signal_emit (self, signals[AGENT_CHANGED], 0, call->id);
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  g_debug ("The keyring is unavailable: %s", error->message);
  if (call->token != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             "%s", _("No keyring is available; the token was not saved"));
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             "%s", _("No keyring is available; the token was not removed"));
}

/**
 * tandem_agents_store_token_async:
 * @self: the agents
 * @id: an agent's id
 * @token: (nullable): its bearer token; %NULL or "" removes it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Keeps @token in the keyring, and only there. When no keyring answers
 * (no secret service, no session bus, or no answer within 30 seconds) the
 * token is not saved anywhere and the finish fails with
 * %G_IO_ERROR_NOT_SUPPORTED and a message saying so.
 */
void
tandem_agents_store_token_async (TandemAgents        *self,
                                 const char          *id,
                                 const char          *token,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  KeyringCall *call;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_store_token_async);

  if (strcmp (id, TANDEM_AGENTS_DEMO_ID) == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "%s", _("The demo agent takes no token"));
      return;
    }

  call = keyring_call_new (cancellable, id);
  if (token != NULL && token[0] != '\0')
    call->token = g_strdup (token);
  agent = tandem_agents_ref_agent (self, id);
  call->label = g_strdup_printf (_("Tandem token for “%s”"), agent ? agent->name : id);
  g_task_set_task_data (task, call, (GDestroyNotify) keyring_call_free);

  g_queue_push_tail (&self->keyring_writes, g_object_ref (task));
  if (self->keyring_writes.length == 1)
    keyring_write_start (g_steal_pointer (&task));
}

/* Takes @task's reference; the write's callback starts the next one */
static void
keyring_write_start (GTask *task)
{
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = token_attributes (call->id);

  if (call->token != NULL)
    secret_password_storev (&token_schema, attributes, SECRET_COLLECTION_DEFAULT,
                            call->label, call->token, call->cancellable,
                            tandem_agents_store_token_cb, task);
  else
    secret_password_clearv (&token_schema, attributes, call->cancellable,
                            tandem_agents_store_token_cb, task);
}

gboolean
tandem_agents_store_token_finish (TandemAgents  *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_remove_token_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!tandem_agents_store_token_finish (TANDEM_AGENTS (object), result, &error))
    g_debug ("The token of a removed agent stays in the keyring: %s", error->message);
}

/**
 * tandem_agents_remove:
 * @self: the agents
 * @id: the id of a configured agent
 * @error: return location for a #GError
 *
 * Forgets the agent and, in the background, its token. Removing the
 * active agent makes the demo agent active.
 *
 * Returns: whether an agent was removed; %G_IO_ERROR_NOT_FOUND if none
 *   has @id, %G_IO_ERROR_INVALID_ARGUMENT for the demo agent
 */
gboolean
tandem_agents_remove (TandemAgents  *self,
                      const char    *id,
                      GError       **error)
{
  gboolean was_active;

  g_return_val_if_fail (TANDEM_IS_AGENTS (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (strcmp (id, TANDEM_AGENTS_DEMO_ID) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The demo agent cannot be removed"));
      return FALSE;
    }

  if (!tandem_agents_has (self, id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no agent with the id “%s”"), id);
      return FALSE;
    }

  was_active = g_strcmp0 (self->active_id, id) == 0;
  tandem_agents_write (self, NULL, id);
  if (was_active)
    tandem_agents_set_active_id (self, TANDEM_AGENTS_DEMO_ID);

  tandem_agents_store_token_async (self, id, NULL, NULL, on_remove_token_cb, NULL);

  return TRUE;
}

/* The agent a keyring call on behalf of @task is about, or %NULL when
 * @task has already returned (cancelled, or no such agent). */
static TandemAgent *
ref_agent_for_task (TandemAgents *self,
                    GTask        *task,
                    const char   *id)
{
  TandemAgent *agent;

  if (g_task_return_error_if_cancelled (task))
    return NULL;

  if (!(agent = tandem_agents_ref_agent (self, id)))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                             _("There is no agent with the id “%s”"), id);
  return agent;
}

/* A lookup is never cancelled inside libsecret: its file backend (the
 * tests', and Flatpak's through the portal) reads a cancelled secret with
 * an unset GError and returns its task twice (0.20, on_retrieve_secret()),
 * and conversations opened, switched away from or stopped cancel lookups.
 * The call gives up on our side instead and drops the late answer. */
static void
on_token_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *token;

  token = secret_password_lookup_finish (result, &error);
  if (call->answered)
    {
      if (token != NULL)
        secret_password_free (token);
      return;
    }

  call->answered = TRUE;
  call->found (task, token, error);
}

static void
on_lookup_given_up_cb (GCancellable *cancellable,
                       GTask        *task)
{
  KeyringCall *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (call->answered)
    return;

  call->answered = TRUE;
  if (g_task_return_error_if_cancelled (task))
    return;

  /* The timeout: as when no keyring answers */
  error = g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       "No answer within %d seconds", KEYRING_TIMEOUT_SECONDS);
  call->found (task, NULL, error);
}

/* Takes @task and @call; @found gets the token (to free) or the error
 * once, unless the caller cancelled first. */
static void
lookup_token_for_task (GTask       *task,
                       KeyringCall *call,
                       TokenFound   found)
{
  g_autoptr(GHashTable) attributes = token_attributes (call->id);

  g_task_set_task_data (task, call, (GDestroyNotify) keyring_call_free);
  call->found = found;
  call->lookup_cancelled_id = g_cancellable_connect (call->cancellable, G_CALLBACK (on_lookup_given_up_cb),
                                                     task, NULL);
  if (call->answered)
    {
      g_object_unref (task);
      return;
    }

  secret_password_lookupv (&token_schema, attributes, NULL, on_token_looked_up_cb, task);
}

static void
tandem_agents_find_token_cb (GTask  *task,
                             char   *token,
                             GError *error)
{
  KeyringCall *call = g_task_get_task_data (task);

  if (error != NULL)
    {
      g_debug ("No keyring answered for “%s”: %s", call->id, error->message);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "%s", _("No keyring is available"));
      return;
    }

  /* NULL: nothing stored, which is no failure */
  g_task_return_pointer (task, token, (GDestroyNotify) secret_password_free);
}

/**
 * tandem_agents_lookup_token_async:
 * @self: the agents
 * @id: an agent's id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the token
 * @user_data: data for @callback
 *
 * Reads the bearer token the keyring keeps for an agent, for a caller
 * that sends requests as the agent's transport would (Test Connection
 * on a saved agent whose token field was left empty). Like every
 * keyring call it gives up after 30 seconds.
 */
void
tandem_agents_lookup_token_async (TandemAgents        *self,
                                  const char          *id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_lookup_token_async);

  if (!(agent = ref_agent_for_task (self, task, id)))
    return;

  if (tandem_agent_is_demo (agent))
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  lookup_token_for_task (g_steal_pointer (&task), keyring_call_new (cancellable, id),
                         tandem_agents_find_token_cb);
}

/**
 * tandem_agents_lookup_token_finish:
 * @self: the agents
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the token, to be freed with
 *   secret_password_free(), which wipes it; %NULL with no error when the
 *   keyring holds none, %NULL with %G_IO_ERROR_NOT_SUPPORTED when no
 *   keyring answered, %G_IO_ERROR_NOT_FOUND for an unknown id
 */
char *
tandem_agents_lookup_token_finish (TandemAgents  *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tandem_agent_create_transport:
 * @self: an agent
 * @token: (nullable): its bearer token, as the keyring keeps it
 * @error: return location for a #GError
 *
 * Makes the transport a run of @self goes out on, with @token: the one
 * place that turns an agent's settings into requests, for conversations
 * and for Test Connection alike. See tandem_agents_create_transport_async().
 *
 * Returns: (transfer full) (nullable): the transport, or %NULL with
 *   %AGUI_ERROR_CONFIG for a configuration the transport rejects
 */
AguiTransport *
tandem_agent_create_transport (TandemAgent  *self,
                               const char   *token,
                               GError      **error)
{
  g_autoptr(GStrvBuilder) headers = NULL;
  g_auto(GStrv) header_lines = NULL;

  g_return_val_if_fail (TANDEM_IS_AGENT (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (tandem_agent_is_demo (self))
    return AGUI_TRANSPORT (agui_demo_agent_new ());

  if (token != NULL && token[0] == '\0')
    token = NULL;

  headers = g_strv_builder_new ();
  for (guint i = 0; self->headers[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;
      g_autofree char *line = NULL;

      if (!split_header (self->headers[i], &name, &value))
        continue;

      /* The token from the keyring wins over a header written by hand. */
      if (token != NULL && g_ascii_strcasecmp (name, "Authorization") == 0)
        continue;

      line = g_strdup_printf ("%s: %s", name, value);
      g_strv_builder_add (headers, line);
    }

  if (tandem_agent_is_openai (self))
    {
      header_lines = g_strv_builder_end (headers);
      return g_initable_new (AGUI_TYPE_OPENAI_AGENT, NULL, error,
                             "base-url", self->url,
                             "model", self->model,
                             "headers", header_lines,
                             "api-key", token,
                             "system-prompt", self->system_prompt,
                             "temperature", self->temperature,
                             "idle-timeout", self->idle_timeout * 1000,
                             NULL);
    }

  if (token != NULL)
    {
      char *authorization = g_strconcat ("Authorization: Bearer ", token, NULL);

      g_strv_builder_add (headers, authorization);
      secret_password_free (authorization);
    }
  header_lines = g_strv_builder_end (headers);

  return g_initable_new (AGUI_TYPE_HTTP_TRANSPORT, NULL, error,
                         "url", self->url,
                         "headers", header_lines,
                         "connect-timeout", CONNECT_TIMEOUT_MS,
                         "idle-timeout", self->idle_timeout * 1000,
                         "max-frame-size", (guint64) self->max_frame_size,
                         "encoding", self->encoding,
                         NULL);
}

static void
tandem_agents_lookup_token_cb (GTask  *task,
                               char   *token,
                               GError *error)
{
  KeyringCall *call = g_task_get_task_data (task);
  TandemAgent *agent = call->agent;
  g_autoptr(GError) local_error = NULL;
  AguiTransport *transport;

  if (error != NULL)
    g_debug ("No keyring answered; connecting to “%s” without a token: %s",
             agent->id, error->message);
  else if (token == NULL)
    g_debug ("No token for “%s” in the keyring", agent->id);

  transport = tandem_agent_create_transport (agent, token, &local_error);
  if (token != NULL)
    secret_password_free (token);

  if (transport == NULL)
    g_task_return_error (task, g_steal_pointer (&local_error));
  else
    g_task_return_pointer (task, transport, g_object_unref);
}

/**
 * tandem_agents_create_transport_async:
 * @self: the agents
 * @id: an agent's id, or "demo"
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the transport
 * @user_data: data for @callback
 *
 * Makes the transport to talk to an agent: an [class@Agui.DemoAgent] for
 * "demo", an [class@Agui.OpenaiAgent] for a model on an OpenAI-compatible
 * server (its token as the API key), otherwise an [class@Agui.HttpTransport] with the agent's URL
 * and headers, a 30 second connect timeout, its idle timeout and largest
 * event and, when the keyring holds a
 * token for it, `Authorization: Bearer`. When no keyring answers, the
 * transport goes without the token.
 */
void
tandem_agents_create_transport_async (TandemAgents        *self,
                                      const char          *id,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TandemAgent) agent = NULL;
  KeyringCall *call;

  g_return_if_fail (TANDEM_IS_AGENTS (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tandem_agents_create_transport_async);

  if (!(agent = ref_agent_for_task (self, task, id)))
    return;

  if (tandem_agent_is_demo (agent))
    {
      g_task_return_pointer (task, agui_demo_agent_new (), g_object_unref);
      return;
    }

  call = keyring_call_new (cancellable, id);
  call->agent = g_steal_pointer (&agent);
  lookup_token_for_task (g_steal_pointer (&task), call, tandem_agents_lookup_token_cb);
}

/**
 * tandem_agents_create_transport_finish:
 * @self: the agents
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the transport, or %NULL with @error
 *   set: %G_IO_ERROR_NOT_FOUND for an unknown id, %AGUI_ERROR_CONFIG for a
 *   configuration the transport rejects
 */
AguiTransport *
tandem_agents_create_transport_finish (TandemAgents  *self,
                                       GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (TANDEM_IS_AGENTS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
