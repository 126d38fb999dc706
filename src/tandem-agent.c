/* tandem-agent.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <libsecret/secret.h>

#include "tandem-agent-private.h"

#define CONNECT_TIMEOUT_MS 30000

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
  return tandem_agent_new_full (id, name, url, headers, TANDEM_AGENT_DEFAULT_IDLE_TIMEOUT, 0);
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

gboolean
_tandem_agent_equal (TandemAgent *a,
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

/* Splits `Name: value`; the name is kept as written (a space in it makes
 * it invalid), the value loses the whitespace around it. */
gboolean
_tandem_agent_split_header (const char  *header,
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

      if (!_tandem_agent_split_header (self->headers[i], &name, &value))
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
