/* agui-openai-chunk-reader.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"
#include "agui-openai-chunk-reader-private.h"
#include "agui-sse-decoder-private.h"
#include "agui-types.h"

#define THINK_OPEN  "<think>"
#define THINK_CLOSE "</think>"

/* How much of a frame that is not JSON is quoted. */
#define QUOTE_CHARS 120

typedef enum
{
  /* Nothing visible yet: a `<think>` may still open the content. */
  CONTENT_UNDECIDED,
  CONTENT_THINKING,
  CONTENT_TEXT,
} ContentMode;

typedef struct
{
  gint64   index;
  char    *id;
  char    *name;
  GString *arguments;
  gboolean started;
} ToolCall;

struct _AguiOpenaiChunkReader
{
  AguiOpenaiChunkEventFunc  func;
  gpointer                  user_data;
  AguiSseDecoder           *decoder;
  GError                   *error;        /* the body failed; set once */
  char                     *error_code;

  char                     *message_id;
  GString                  *text;         /* the visible answer so far */
  GString                  *pending;      /* content held back while a tag may be forming */
  ContentMode               mode;
  gboolean                  strip_leading; /* after </think>, the blank lines that follow it */
  gboolean                  text_open;

  char                     *reasoning_span_id;
  char                     *reasoning_message_id;

  GPtrArray                *calls;        /* ToolCall, in the order they appeared */
  guint                     n_started;

  char                     *finish_reason;
  char                     *model;
  AguiJsonValue             usage;        /* null until the server sends one */
  gboolean                  done;
  gboolean                  finished;
};

static void
tool_call_free (ToolCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_string_free (call->arguments, TRUE);
  g_free (call);
}

/* Takes @members (an object) */
static void
emit (AguiOpenaiChunkReader *self,
      AguiEventType          type,
      AguiJsonValue         *members)
{
  g_autoptr(AguiJsonValue) owned = members;
  g_autoptr(AguiEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  /* Every member is a string this reader checked as UTF-8 (the decoder
   * refuses anything else), so the schema refusing one is a bug here. */
  if (!(event = _agui_event_new_checked (type, owned, &error)))
    {
      g_critical ("The OpenAI chunk reader built an invalid %s event: %s",
                  agui_event_type_to_string (type), error->message);
      return;
    }

  self->func (event, self->user_data);
}

static AguiJsonValue *
members_new (const char *name,
             const char *value)
{
  AguiJsonValue *members = g_new0 (AguiJsonValue, 1);

  _agui_json_doc_set_string (_agui_json_value_set_object (members, 4), name, value);

  return members;
}

static void
set_string (AguiJsonValue *members,
            const char    *name,
            const char    *value)
{
  _agui_json_doc_set_string (members->u.object, name, value);
}

static void
fail (AguiOpenaiChunkReader *self,
      const char            *code,
      GError                *error)
{
  if (self->error != NULL)
    {
      g_error_free (error);
      return;
    }

  self->error = error;
  g_free (self->error_code);
  self->error_code = g_strdup (code);
}

static void
set_string_length (AguiJsonValue *members,
                   const char    *name,
                   const char    *value,
                   gsize          length)
{
  g_autofree char *copy = g_strndup (value, length);

  set_string (members, name, copy);
}

/* Reasoning */

static void
reasoning_close (AguiOpenaiChunkReader *self)
{
  if (self->reasoning_message_id == NULL)
    return;

  emit (self, AGUI_EVENT_REASONING_MESSAGE_END, members_new ("messageId", self->reasoning_message_id));
  emit (self, AGUI_EVENT_REASONING_END, members_new ("messageId", self->reasoning_span_id));
  g_clear_pointer (&self->reasoning_message_id, g_free);
  g_clear_pointer (&self->reasoning_span_id, g_free);
}

static void
reasoning_append (AguiOpenaiChunkReader *self,
                  const char            *delta,
                  gsize                  length)
{
  AguiJsonValue *members;

  if (length == 0)
    return;

  if (self->reasoning_message_id == NULL)
    {
      AguiJsonValue *start;

      self->reasoning_span_id = g_uuid_string_random ();
      self->reasoning_message_id = g_uuid_string_random ();
      emit (self, AGUI_EVENT_REASONING_START, members_new ("messageId", self->reasoning_span_id));
      start = members_new ("messageId", self->reasoning_message_id);
      set_string (start, "role", "reasoning");
      emit (self, AGUI_EVENT_REASONING_MESSAGE_START, start);
    }

  members = members_new ("messageId", self->reasoning_message_id);
  set_string_length (members, "delta", delta, length);
  emit (self, AGUI_EVENT_REASONING_MESSAGE_CONTENT, members);
}

/* Text */

static void
text_append (AguiOpenaiChunkReader *self,
             const char            *delta,
             gsize                  length)
{
  AguiJsonValue *members;

  if (self->strip_leading)
    {
      while (length > 0 && g_ascii_isspace (*delta))
        delta++, length--;
      if (length == 0)
        return;
      self->strip_leading = FALSE;
    }

  if (length == 0)
    return;

  reasoning_close (self);

  if (!self->text_open)
    {
      AguiJsonValue *start = members_new ("messageId", self->message_id);

      set_string (start, "role", "assistant");
      emit (self, AGUI_EVENT_TEXT_MESSAGE_START, start);
      self->text_open = TRUE;
    }

  g_string_append_len (self->text, delta, length);
  members = members_new ("messageId", self->message_id);
  set_string_length (members, "delta", delta, length);
  emit (self, AGUI_EVENT_TEXT_MESSAGE_CONTENT, members);
}

static void
text_close (AguiOpenaiChunkReader *self)
{
  if (!self->text_open)
    return;

  emit (self, AGUI_EVENT_TEXT_MESSAGE_END, members_new ("messageId", self->message_id));
  self->text_open = FALSE;
}

/* How many bytes at the end of @text could be the start of @tag. */
static gsize
partial_tag_length (const char *text,
                    gsize       length,
                    const char *tag)
{
  gsize tag_length = strlen (tag);

  for (gsize n = MIN (length, tag_length - 1); n > 0; n--)
    if (memcmp (text + length - n, tag, n) == 0)
      return n;

  return 0;
}

/* Splits the content between reasoning and text. A model that thinks
 * aloud (DeepSeek R1, Qwen3, QwQ behind a server that does not separate
 * it) opens its content with `<think>`; a `<think>` after visible text is
 * the model talking about the tag, and stays text. */
static void
content_drain (AguiOpenaiChunkReader *self,
               gboolean               at_end)
{
  while (self->pending->len > 0)
    {
      const char *data = self->pending->str;
      gsize length = self->pending->len;

      switch (self->mode)
        {
        case CONTENT_UNDECIDED:
          {
            gsize blank = 0;
            gsize rest;

            while (blank < length && g_ascii_isspace (data[blank]))
              blank++;
            rest = length - blank;

            if (rest >= strlen (THINK_OPEN) && memcmp (data + blank, THINK_OPEN, strlen (THINK_OPEN)) == 0)
              {
                g_string_erase (self->pending, 0, blank + strlen (THINK_OPEN));
                self->mode = CONTENT_THINKING;
                continue;
              }
            if (!at_end && (rest == 0 || (rest < strlen (THINK_OPEN) &&
                                          memcmp (data + blank, THINK_OPEN, rest) == 0)))
              return;

            self->mode = CONTENT_TEXT;
            continue;
          }

        case CONTENT_THINKING:
          {
            const char *close = g_strstr_len (data, length, THINK_CLOSE);
            gsize held;

            if (close != NULL)
              {
                reasoning_append (self, data, close - data);
                g_string_erase (self->pending, 0, (close - data) + strlen (THINK_CLOSE));
                reasoning_close (self);
                self->mode = CONTENT_TEXT;
                self->strip_leading = TRUE;
                continue;
              }

            held = at_end ? 0 : partial_tag_length (data, length, THINK_CLOSE);
            reasoning_append (self, data, length - held);
            g_string_erase (self->pending, 0, length - held);
            return;
          }

        case CONTENT_TEXT:
        default:
          text_append (self, data, length);
          g_string_truncate (self->pending, 0);
          return;
        }
    }
}

static void
content_append (AguiOpenaiChunkReader *self,
                const char            *delta)
{
  if (delta == NULL || delta[0] == '\0')
    return;

  if (self->mode == CONTENT_TEXT && self->pending->len == 0)
    {
      text_append (self, delta, strlen (delta));
      return;
    }

  g_string_append (self->pending, delta);
  content_drain (self, FALSE);
}

/* Tool calls */

static void
tool_call_start (AguiOpenaiChunkReader *self,
                 ToolCall              *call)
{
  AguiJsonValue *members;

  /* A server that gives no id, or one id twice, still gets distinct
   * calls: the answers go back by id. */
  for (guint i = 0; call->id != NULL && i < self->calls->len; i++)
    {
      ToolCall *other = g_ptr_array_index (self->calls, i);

      if (other != call && other->started && g_strcmp0 (other->id, call->id) == 0)
        g_clear_pointer (&call->id, g_free);
    }
  if (call->id == NULL || call->id[0] == '\0')
    {
      g_autofree char *uuid = g_uuid_string_random ();

      g_free (call->id);
      call->id = g_strconcat ("call_", uuid, NULL);
    }

  reasoning_close (self);

  members = members_new ("toolCallId", call->id);
  set_string (members, "toolCallName", call->name);
  set_string (members, "parentMessageId", self->message_id);
  emit (self, AGUI_EVENT_TOOL_CALL_START, members);
  call->started = TRUE;
  self->n_started++;

  if (call->arguments->len > 0)
    {
      members = members_new ("toolCallId", call->id);
      set_string (members, "delta", call->arguments->str);
      emit (self, AGUI_EVENT_TOOL_CALL_ARGS, members);
    }
}

static ToolCall *
tool_call_find (AguiOpenaiChunkReader *self,
                const AguiJsonValue   *piece,
                guint                  position)
{
  const char *id = _agui_json_doc_get_string (piece, "id");
  gint64 index;
  ToolCall *call;

  for (guint i = 0; i < self->calls->len; i++)
    {
      call = g_ptr_array_index (self->calls, i);

      /* `index` names the call; a server that leaves it out (older
       * Ollama) sends each call whole, with its id. */
      if (_agui_json_doc_get_int (piece, "index", &index) ? call->index == index
                                           : (id != NULL ? g_strcmp0 (call->id, id) == 0
                                                         : call->index == -1 - (gint64) position))
        return call;
    }

  if (self->calls->len >= AGUI_OPENAI_MAX_TOOL_CALLS)
    {
      fail (self, "stream",
            g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                         "The model server sent more than %d tool calls in one answer",
                         AGUI_OPENAI_MAX_TOOL_CALLS));
      return NULL;
    }

  call = g_new0 (ToolCall, 1);
  if (!_agui_json_doc_get_int (piece, "index", &call->index))
    call->index = id != NULL ? G_MININT64 : -1 - (gint64) position;
  call->arguments = g_string_new (NULL);
  g_ptr_array_add (self->calls, call);

  return call;
}

static void
tool_call_piece (AguiOpenaiChunkReader *self,
                 const AguiJsonValue   *piece,
                 guint                  position)
{
  AguiJsonValue *function = _agui_json_doc_get_object (piece, "function");
  AguiJsonValue *arguments = _agui_json_doc_get_member (function, "arguments");
  const char *id = _agui_json_doc_get_string (piece, "id");
  const char *name = _agui_json_doc_get_string (function, "name");
  g_autofree char *printed = NULL;
  const char *delta = NULL;
  ToolCall *call;

  if (!(call = tool_call_find (self, piece, position)))
    return;

  if (call->id == NULL && id != NULL && id[0] != '\0' && !call->started)
    call->id = g_strdup (id);
  if (call->name == NULL && name != NULL && name[0] != '\0')
    call->name = g_strdup (name);

  if (arguments != NULL && _agui_json_value_is_string (arguments))
    delta = _agui_json_value_get_string (arguments);
  else if (arguments != NULL && arguments->kind == AGUI_JSON_DOC_OBJECT)
    delta = printed = _agui_json_value_to_string (arguments, FALSE, NULL);  /* servers that send an object */

  if (delta != NULL && delta[0] != '\0')
    {
      g_string_append (call->arguments, delta);
      if (call->started)
        {
          AguiJsonValue *members = members_new ("toolCallId", call->id);

          set_string (members, "delta", delta);
          emit (self, AGUI_EVENT_TOOL_CALL_ARGS, members);
        }
    }

  if (!call->started && call->name != NULL)
    tool_call_start (self, call);
}

/* Frames */

static void
read_error (AguiOpenaiChunkReader *self,
            const AguiJsonValue   *error)
{
  const char *message = NULL;
  const char *code = NULL;
  g_autofree char *printed = NULL;

  if (error->kind == AGUI_JSON_DOC_OBJECT)
    {
      gint64 number;

      message = _agui_json_doc_get_string (error, "message");
      code = _agui_json_doc_get_string (error, "code") ?: _agui_json_doc_get_string (error, "type");
      if (code == NULL && _agui_json_doc_get_int (error, "code", &number))
        code = printed = g_strdup_printf ("%" G_GINT64_FORMAT, number);
    }
  else if (_agui_json_value_is_string (error))
    {
      message = _agui_json_value_get_string (error);
    }

  fail (self, code ? code : "server_error",
        g_error_new (AGUI_ERROR, AGUI_ERROR_RUN, "The model server reported an error: %s",
                     message && message[0] ? message : "(no message)"));
}

static void
read_chunk (AguiOpenaiChunkReader *self,
            AguiJsonValue         *chunk)
{
  AguiJsonValue *choices = _agui_json_doc_get_array (chunk, "choices");
  AguiJsonValue *usage = _agui_json_doc_get_object (chunk, "usage");
  AguiJsonValue *choice = NULL;
  AguiJsonValue *delta;
  AguiJsonValue *tool_calls;
  const char *finish_reason;

  if (_agui_json_doc_get_string (chunk, "model") != NULL && self->model == NULL)
    self->model = g_strdup (_agui_json_doc_get_string (chunk, "model"));

  /* The chunk is the reader's own and read once: its usage is moved out
   * rather than copied. */
  if (usage != NULL)
    _agui_json_value_move (&self->usage, usage);

  /* n is 1: the first choice is the answer. */
  for (guint i = 0; i < _agui_json_doc_get_length (choices); i++)
    {
      AguiJsonValue *element = _agui_json_doc_get_element (choices, i);
      gint64 index = 0;

      if (element->kind == AGUI_JSON_DOC_OBJECT &&
          (!_agui_json_doc_get_int (element, "index", &index) || index == 0))
        {
          choice = element;
          break;
        }
    }
  if (choice == NULL)
    return;

  /* A server that ignores `stream` and answers with whole messages
   * in its chunks is read the same way. */
  delta = _agui_json_doc_get_object (choice, "delta") ?: _agui_json_doc_get_object (choice, "message");

  reasoning_append (self, _agui_json_doc_get_string (delta, "reasoning_content") ?: "",
                    strlen (_agui_json_doc_get_string (delta, "reasoning_content") ?: ""));
  reasoning_append (self, _agui_json_doc_get_string (delta, "reasoning") ?: "",
                    strlen (_agui_json_doc_get_string (delta, "reasoning") ?: ""));
  content_append (self, _agui_json_doc_get_string (delta, "content"));
  content_append (self, _agui_json_doc_get_string (delta, "refusal"));

  tool_calls = _agui_json_doc_get_array (delta, "tool_calls");
  for (guint i = 0; i < _agui_json_doc_get_length (tool_calls) && self->error == NULL; i++)
    {
      AguiJsonValue *element = _agui_json_doc_get_element (tool_calls, i);

      if (element->kind == AGUI_JSON_DOC_OBJECT)
        tool_call_piece (self, element, i);
    }

  if ((finish_reason = _agui_json_doc_get_string (choice, "finish_reason")) != NULL && finish_reason[0] != '\0')
    {
      g_free (self->finish_reason);
      self->finish_reason = g_strdup (finish_reason);
    }
}

gboolean
_agui_openai_chunk_reader_push_frame (AguiOpenaiChunkReader  *self,
                                      const char             *data,
                                      gsize                   length,
                                      GError                **error)
{
  g_auto(AguiJsonValue) chunk = AGUI_JSON_VALUE_INIT;
  AguiJsonValue *error_value;
  gsize start = 0;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->error != NULL || self->done)
    goto out;

  while (start < length && g_ascii_isspace (data[start]))
    start++;
  if (start == length)
    goto out;

  if (length - start == strlen ("[DONE]") && memcmp (data + start, "[DONE]", strlen ("[DONE]")) == 0)
    {
      self->done = TRUE;
      goto out;
    }

  if (!_agui_json_doc_parse (data + start, length - start, &chunk, NULL) || chunk.kind != AGUI_JSON_DOC_OBJECT)
    {
      g_autofree char *valid = g_utf8_make_valid (data + start, MIN (length - start, QUOTE_CHARS * 4));
      g_autofree char *quote = g_utf8_substring (valid, 0, MIN (g_utf8_strlen (valid, -1), QUOTE_CHARS));

      fail (self, "stream",
            g_error_new (AGUI_ERROR, AGUI_ERROR_STREAM,
                         "The model server sent something that is not a chat completion chunk: “%s”",
                         quote));
      goto out;
    }

  if ((error_value = _agui_json_doc_get_member (&chunk, "error")) != NULL && error_value->kind != AGUI_JSON_DOC_NULL)
    {
      read_error (self, error_value);
      goto out;
    }

  read_chunk (self, &chunk);

out:
  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return FALSE;
    }

  return TRUE;
}

static void
on_frame (const char *data,
          gsize       length,
          gboolean    unterminated,
          gpointer    user_data)
{
  AguiOpenaiChunkReader *self = user_data;
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

  /* A last frame without its blank line is read all the same (`[DONE]`
   * still ends the answer), unless it was cut in the middle: then the
   * stream was cut short, which finish() says. */
  if (unterminated && !(length == strlen ("[DONE]") && memcmp (data, "[DONE]", length) == 0) &&
      !_agui_json_doc_parse (data, length, &value, NULL))
    return;

  _agui_openai_chunk_reader_push_frame (self, data, length, NULL);
}

gboolean
_agui_openai_chunk_reader_push_bytes (AguiOpenaiChunkReader  *self,
                                      const guint8           *data,
                                      gsize                   length,
                                      GError                **error)
{
  g_autoptr(GError) decode_error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->error == NULL && !_agui_sse_decoder_push (self->decoder, data, length, &decode_error))
    fail (self, "stream", g_steal_pointer (&decode_error));

  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return FALSE;
    }

  return TRUE;
}

gboolean
_agui_openai_chunk_reader_finish (AguiOpenaiChunkReader  *self,
                                  GError                **error)
{
  g_autoptr(GError) decode_error = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->finished)
    goto out;
  self->finished = TRUE;

  if (self->error == NULL && !_agui_sse_decoder_finish (self->decoder, &decode_error))
    fail (self, "stream", g_steal_pointer (&decode_error));

  content_drain (self, TRUE);
  reasoning_close (self);
  text_close (self);

  if (self->error != NULL)
    goto out;

  if (!self->done)
    {
      if (self->finish_reason != NULL)
        fail (self, "stream",
              g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                   "The model server ended the stream without its closing [DONE]; "
                                   "the answer may be incomplete, and its tool calls were not run"));
      else
        fail (self, "stream",
              g_error_new_literal (AGUI_ERROR, AGUI_ERROR_STREAM,
                                   "The model server stopped sending before the answer was complete "
                                   "(the connection closed mid-stream)"));
      goto out;
    }

  if (g_strcmp0 (self->finish_reason, "length") == 0)
    {
      fail (self, "length",
            g_error_new_literal (AGUI_ERROR, AGUI_ERROR_RUN,
                                 "The answer was cut off: the model reached its length limit "
                                 "(the server's maximum number of tokens or its context size)"));
      goto out;
    }
  if (g_strcmp0 (self->finish_reason, "content_filter") == 0)
    {
      fail (self, "content_filter",
            g_error_new_literal (AGUI_ERROR, AGUI_ERROR_RUN,
                                 "The model server's content filter stopped the answer"));
      goto out;
    }

  /* Some servers say `stop` even when the answer is tool calls: the
   * calls are what counts. */
  for (guint i = 0; i < self->calls->len; i++)
    {
      ToolCall *call = g_ptr_array_index (self->calls, i);

      if (call->started)
        emit (self, AGUI_EVENT_TOOL_CALL_END, members_new ("toolCallId", call->id));
    }

out:
  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return FALSE;
    }

  return TRUE;
}

AguiOpenaiChunkReader *
_agui_openai_chunk_reader_new (AguiOpenaiChunkEventFunc func,
                               gpointer                 user_data)
{
  AguiOpenaiChunkReader *self = g_new0 (AguiOpenaiChunkReader, 1);

  g_return_val_if_fail (func != NULL, NULL);

  self->func = func;
  self->user_data = user_data;
  self->decoder = _agui_sse_decoder_new ();
  _agui_sse_decoder_set_frame_func (self->decoder, on_frame, self);
  self->message_id = g_uuid_string_random ();
  self->text = g_string_new (NULL);
  self->pending = g_string_new (NULL);
  self->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_call_free);

  return self;
}

void
_agui_openai_chunk_reader_free (AguiOpenaiChunkReader *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->decoder);
  g_clear_error (&self->error);
  g_free (self->error_code);
  g_free (self->message_id);
  g_string_free (self->text, TRUE);
  g_string_free (self->pending, TRUE);
  g_free (self->reasoning_span_id);
  g_free (self->reasoning_message_id);
  g_ptr_array_unref (self->calls);
  g_free (self->finish_reason);
  g_free (self->model);
  _agui_json_value_clear (&self->usage);
  g_free (self);
}

void
_agui_openai_chunk_reader_set_max_frame_size (AguiOpenaiChunkReader *self,
                                              gsize                  max_frame_size)
{
  g_return_if_fail (self != NULL);

  if (max_frame_size > 0)
    _agui_sse_decoder_set_max_frame_size (self->decoder, max_frame_size);
}

const char *
_agui_openai_chunk_reader_get_message_id (AguiOpenaiChunkReader *self)
{
  return self->message_id;
}

const char *
_agui_openai_chunk_reader_get_text (AguiOpenaiChunkReader *self)
{
  return self->text->str;
}

const char *
_agui_openai_chunk_reader_get_finish_reason (AguiOpenaiChunkReader *self)
{
  return self->finish_reason;
}

const char *
_agui_openai_chunk_reader_get_model (AguiOpenaiChunkReader *self)
{
  return self->model;
}

const AguiJsonValue *
_agui_openai_chunk_reader_get_usage (AguiOpenaiChunkReader *self)
{
  return self->usage.kind == AGUI_JSON_DOC_OBJECT ? &self->usage : NULL;
}

const char *
_agui_openai_chunk_reader_get_error_code (AguiOpenaiChunkReader *self)
{
  return self->error_code;
}

guint
_agui_openai_chunk_reader_get_n_tool_calls (AguiOpenaiChunkReader *self)
{
  return self->n_started;
}

gboolean
_agui_openai_chunk_reader_get_tool_call (AguiOpenaiChunkReader  *self,
                                         guint                   position,
                                         const char            **id,
                                         const char            **name,
                                         const char            **arguments)
{
  for (guint i = 0, seen = 0; i < self->calls->len; i++)
    {
      ToolCall *call = g_ptr_array_index (self->calls, i);

      if (!call->started)
        continue;
      if (seen++ == position)
        {
          *id = call->id;
          *name = call->name;
          *arguments = call->arguments->str;
          return TRUE;
        }
    }

  return FALSE;
}
