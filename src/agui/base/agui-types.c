/* agui-types.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "agui-error-private.h"
#include "agui-types.h"

/* An extended domain, so that an error carries the raw material behind
 * its short message (an error body, a Content-Type) through every
 * g_error_copy() between the transport and the run state. */
typedef struct
{
  char *details;
} AguiErrorPrivate;

static void
agui_error_private_init (AguiErrorPrivate *priv)
{
  priv->details = NULL;
}

static void
agui_error_private_copy (const AguiErrorPrivate *src,
                         AguiErrorPrivate       *dest)
{
  dest->details = g_strdup (src->details);
}

static void
agui_error_private_clear (AguiErrorPrivate *priv)
{
  g_clear_pointer (&priv->details, g_free);
}

G_DEFINE_EXTENDED_ERROR (AguiError, agui_error)

/* Private: the details of an %AGUI_ERROR, such as the body of an HTTP
 * error response, for a "Details" section beside the short message. */
void
_agui_error_set_details (GError     *error,
                         const char *details)
{
  AguiErrorPrivate *priv;

  g_return_if_fail (error != NULL);

  if (error->domain != AGUI_ERROR)
    return;

  priv = agui_error_get_private (error);

  g_free (priv->details);
  priv->details = details != NULL && details[0] != '\0' ? g_strdup (details) : NULL;
}

/* Returns: (nullable): the details of an %AGUI_ERROR, or %NULL for none
 * and for an error of another domain */
const char *
_agui_error_get_details (const GError *error)
{
  AguiErrorPrivate *priv;

  if (error == NULL || error->domain != AGUI_ERROR)
    return NULL;

  priv = agui_error_get_private (error);
  return priv->details;
}

/**
 * agui_stage_from_error:
 * @error: (nullable): an error a run failed with
 *
 * Tells which pipeline stage an error belongs to, so that a caller can say
 * "the agent sent a malformed event" rather than only "the run failed".
 *
 * Returns: the stage, or %AGUI_STAGE_NONE for %NULL
 */
AguiStage
agui_stage_from_error (const GError *error)
{
  if (error == NULL)
    return AGUI_STAGE_NONE;

  if (error->domain != AGUI_ERROR)
    return AGUI_STAGE_TRANSPORT;

  switch ((AguiError) error->code)
    {
    case AGUI_ERROR_INVALID_EVENT:
      return AGUI_STAGE_ENFORCE;

    case AGUI_ERROR_CHUNK:
      return AGUI_STAGE_CHUNKS;

    case AGUI_ERROR_PROTOCOL:
      return AGUI_STAGE_VERIFY;

    case AGUI_ERROR_RUN:
      return AGUI_STAGE_AGENT;

    case AGUI_ERROR_CONFIG:
    case AGUI_ERROR_INTERRUPTED:
    case AGUI_ERROR_INVALID_ARGUMENT:
    case AGUI_ERROR_EXPIRED:
      return AGUI_STAGE_CLIENT;

    case AGUI_ERROR_FAILED:
    case AGUI_ERROR_INVALID_FRAME:
    case AGUI_ERROR_INVALID_JSON:
    case AGUI_ERROR_PATCH:
    case AGUI_ERROR_CONNECT:
    case AGUI_ERROR_HTTP_STATUS:
    case AGUI_ERROR_STREAM:
    case AGUI_ERROR_UNSUPPORTED:
    case AGUI_ERROR_STORE:
    default:
      return AGUI_STAGE_TRANSPORT;
    }
}

/**
 * agui_stage_to_string:
 * @stage: a stage
 *
 * Returns: (nullable): the stage's name as the conformance fixtures spell
 *   it (`"transport"`, `"verify"`, ...), or %NULL for %AGUI_STAGE_NONE
 */
const char *
agui_stage_to_string (AguiStage stage)
{
  switch (stage)
    {
    case AGUI_STAGE_CLIENT:    return "client";
    case AGUI_STAGE_TRANSPORT: return "transport";
    case AGUI_STAGE_ENFORCE:   return "enforce";
    case AGUI_STAGE_CHUNKS:    return "chunks";
    case AGUI_STAGE_VERIFY:    return "verify";
    case AGUI_STAGE_AGENT:     return "agent";
    case AGUI_STAGE_NONE:
    default:
      return NULL;
    }
}

static const char * const role_names[] = {
  [AGUI_ROLE_USER] = "user",
  [AGUI_ROLE_ASSISTANT] = "assistant",
  [AGUI_ROLE_SYSTEM] = "system",
  [AGUI_ROLE_DEVELOPER] = "developer",
  [AGUI_ROLE_TOOL] = "tool",
  [AGUI_ROLE_REASONING] = "reasoning",
  [AGUI_ROLE_ACTIVITY] = "activity",
};

/**
 * agui_role_to_string:
 * @role: a role
 *
 * Returns: the role's wire name, such as `"assistant"`
 */
const char *
agui_role_to_string (AguiRole role)
{
  g_return_val_if_fail ((guint) role < G_N_ELEMENTS (role_names), NULL);

  return role_names[role];
}

/**
 * agui_role_from_string:
 * @name: a wire name such as `"user"`
 * @role: (out) (optional): where to store the role
 *
 * Returns: %TRUE if @name is a role of AG-UI 1.0
 */
gboolean
agui_role_from_string (const char *name,
                       AguiRole   *role)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (role_names); i++)
    {
      if (g_str_equal (name, role_names[i]))
        {
          if (role != NULL)
            *role = (AguiRole) i;
          return TRUE;
        }
    }

  return FALSE;
}
