/* agui-input-messages.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "agui-input-messages-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-reasoning-part.h"
#include "agui-text-part-private.h"
#include "agui-tool-call-part-private.h"
#include "agui-transcript-shared-private.h"

/* The messages of a run's input, kept from one send to the next. Each
 * run sends every message of the thread, and on a long thread making
 * them all again (20,000 JSON objects, then their text) held the main
 * loop for 100 ms at each send; yet a message that is complete seldom
 * changes.
 *
 * Nothing tells when a record changes (the reducer, the branches and
 * the answers all change records in place), so each message is kept
 * with a key: every value of its record that the projection reads
 * (_agui_record_to_input_message_value()), laid end to end. A record whose
 * key is what it was gives its kept message and text; any other is
 * projected again. Comparing keys costs a copy of the thread's text;
 * projecting costs its JSON. What reaches the agent is always what a
 * projection of the transcript as it is now would give: a value the
 * projection reads and the key misses would break that, so the two
 * change together. */

typedef struct
{
  char     *key;
  gsize     key_len;
  /* NULL when nothing of the record goes to the agent */
  JsonNode *message;
  char     *text;
  gsize     text_len;
  /* Never the same for two texts: see _agui_input_messages_print() */
  guint64   stamp;
  guint     pass;
} Entry;

typedef struct
{
  const char *text;
  gsize       len;
  /* 0 for a text of the build's own */
  guint64     stamp;
} Piece;

/* A message of the last print: its text's stamp, and where its text
 * ends in last_text */
typedef struct
{
  guint64 stamp;
  gsize   end;
} Printed;

struct _AguiInputMessages
{
  /* record id → Entry */
  GHashTable    *entries;
  GString       *key;
  JsonGenerator *generator;
  /* The next record _update() looks at */
  guint          cursor;
  /* The text of each message of the last build, in order: borrowed
   * from the entries, or from own_texts for a record without an id */
  GArray        *pieces;
  GPtrArray     *own_texts;
  /* The entry each record had at the last look, by the record's
   * index: the first tried, before a lookup by id (the key holds the
   * id, so a match is the record's) */
  GPtrArray     *order;
  guint          pass;
  /* How many entries the build under way has used */
  guint          n_seen;
  guint64        next_stamp;
  /* The messages of the last print, or of the last update, laid end to
   * end with their commas */
  GString       *last_text;
  GArray        *last_printed;
  gboolean       laying_out;
};

static void
entry_free (Entry *entry)
{
  g_free (entry->key);
  g_clear_pointer (&entry->message, json_node_unref);
  g_free (entry->text);
  g_free (entry);
}

AguiInputMessages *
_agui_input_messages_new (void)
{
  AguiInputMessages *self = g_new0 (AguiInputMessages, 1);

  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) entry_free);
  self->key = g_string_new (NULL);
  self->generator = json_generator_new ();
  self->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  self->own_texts = g_ptr_array_new_with_free_func (g_free);
  self->order = g_ptr_array_new ();
  self->last_text = g_string_new (NULL);
  self->last_printed = g_array_new (FALSE, FALSE, sizeof (Printed));

  return self;
}

/* Entries freed at one turn of the main loop, about a millisecond's
 * worth */
#define FREE_SLICE 500

static gboolean
free_entries_slice (gpointer user_data)
{
  GHashTable *entries = user_data;
  GHashTableIter iter;
  guint n = 0;

  g_hash_table_iter_init (&iter, entries);
  while (n < FREE_SLICE && g_hash_table_iter_next (&iter, NULL, NULL))
    {
      g_hash_table_iter_remove (&iter);
      n++;
    }

  return g_hash_table_size (entries) > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

void
_agui_input_messages_free (AguiInputMessages *self)
{
  if (self == NULL)
    return;

  /* A long thread's messages took 28 ms to free at once, when the
   * person left the conversation: they are let go a slice at a time
   * instead. They refer to nothing else, so nothing waits for them. */
  if (g_hash_table_size (self->entries) > FREE_SLICE)
    g_idle_add_full (G_PRIORITY_LOW, free_entries_slice, g_steal_pointer (&self->entries),
                     (GDestroyNotify) g_hash_table_unref);
  else
    g_hash_table_unref (self->entries);
  g_string_free (self->key, TRUE);
  g_object_unref (self->generator);
  g_array_unref (self->pieces);
  g_ptr_array_unref (self->own_texts);
  g_ptr_array_unref (self->order);
  g_string_free (self->last_text, TRUE);
  g_array_unref (self->last_printed);
  g_free (self);
}

/* Key */

/* A key is laid out into @out, or, without it, compared as it goes
 * with one kept, so that a record that did not change costs no copy. */
typedef struct
{
  GString    *out;
  const char *kept;
  gsize       kept_len;
  gsize       at;
  gboolean    same;
} Key;

static void
key_put (Key        *key,
         const void *bytes,
         gsize       len)
{
  if (key->out != NULL)
    {
      g_string_append_len (key->out, bytes, len);
      return;
    }

  if (!key->same)
    return;

  if (len > key->kept_len - key->at || memcmp (key->kept + key->at, bytes, len) != 0)
    key->same = FALSE;
  else
    key->at += len;
}

static void
key_add_int (Key *key,
             int  value)
{
  key_put (key, &value, sizeof value);
}

static void
key_add_bytes (Key        *key,
               const char *bytes,
               gsize       len)
{
  /* Each value is preceded by its length, so that no two sequences of
   * values lay out the same */
  key_put (key, &len, sizeof len);
  key_put (key, bytes, len);
}

static void
key_add_string (Key        *key,
                const char *string)
{
  /* A missing string lays out as a length no string has */
  gsize len = string != NULL ? strlen (string) : G_MAXSIZE;

  key_put (key, &len, sizeof len);
  if (string != NULL)
    key_put (key, string, len);
}

static void
key_add_node (Key      *key,
              JsonNode *node)
{
  g_autofree char *text = NULL;

  key_add_int (key, node != NULL);
  if (node == NULL || !(key->out != NULL || key->same))
    return;

  /* A content node or metadata may be changed in place: its text, not
   * its address, says what it holds */
  text = json_to_string (node, FALSE);
  key_add_bytes (key, text, strlen (text));
}

/* As key_add_node () for a record's content, which is a compact tree */
static void
key_add_value (Key                 *key,
               const AguiJsonValue *value)
{
  g_autofree char *text = NULL;

  key_add_int (key, TRUE);
  if (!(key->out != NULL || key->same))
    return;

  text = _agui_json_value_to_string (value, FALSE, NULL);
  key_add_bytes (key, text ? text : "", text ? strlen (text) : 0);
}

/* As key_add_value (), for metadata that may be absent */
static void
key_add_metadata (Key                 *key,
                  const AguiJsonValue *metadata)
{
  if (metadata == NULL)
    key_add_node (key, NULL);
  else
    key_add_value (key, metadata);
}

/* Everything _agui_record_to_input_message_value() reads of @record. The
 * fixed-size values go in one piece: a record that did not change is
 * compared in a handful of calls. */
typedef struct
{
  int   role;
  int   attempt;
  int   has_content;
  /* Which of the record's strings and nodes it has: only those follow */
  guint present;
  guint n_parts;
} RecordHead;

enum
{
  HAS_ID              = 1 << 0,
  HAS_NAME            = 1 << 1,
  HAS_SUBAGENT_RUN_ID = 1 << 2,
  HAS_ENCRYPTED_VALUE = 1 << 3,
  HAS_TOOL_CALL_ID    = 1 << 4,
  HAS_ERROR           = 1 << 5,
  HAS_CONTENT         = 1 << 6,
  HAS_METADATA        = 1 << 7,
};

typedef struct
{
  gsize kind;
  gsize len;
} PartHead;

static void
make_key (Key        *key,
          AguiRecord *record)
{
  RecordHead head = { 0, };

  head.role = record->role;
  head.attempt = record->attempt;
  head.has_content = record->has_content;
  head.present = (record->id ? HAS_ID : 0) |
                 (RECORD_GET (record, name) ? HAS_NAME : 0) |
                 (RECORD_GET (record, subagent_run_id) ? HAS_SUBAGENT_RUN_ID : 0) |
                 (RECORD_GET (record, encrypted_value) ? HAS_ENCRYPTED_VALUE : 0) |
                 (_agui_record_get_tool_call_id (record) ? HAS_TOOL_CALL_ID : 0) |
                 (RECORD_GET (record, error) ? HAS_ERROR : 0) |
                 (record->has_content_value ? HAS_CONTENT : 0) |
                 (RECORD_GET (record, metadata) ? HAS_METADATA : 0);
  head.n_parts = _agui_record_get_n_parts (record);
  key_put (key, &head, sizeof head);

  if (record->id != NULL)
    key_add_string (key, record->id);
  if (RECORD_GET (record, name) != NULL)
    key_add_string (key, RECORD_GET (record, name));
  if (RECORD_GET (record, subagent_run_id) != NULL)
    key_add_string (key, RECORD_GET (record, subagent_run_id));
  if (RECORD_GET (record, encrypted_value) != NULL)
    key_add_string (key, RECORD_GET (record, encrypted_value));
  if (_agui_record_get_tool_call_id (record) != NULL)
    key_add_string (key, _agui_record_get_tool_call_id (record));
  if (RECORD_GET (record, error) != NULL)
    key_add_string (key, RECORD_GET (record, error));
  if (record->has_content_value)
    key_add_value (key, _agui_record_get_content (record));
  if (RECORD_GET (record, metadata) != NULL)
    key_add_metadata (key, RECORD_GET (record, metadata));

  for (guint i = 0; i < _agui_record_get_n_parts (record) && (key->out != NULL || key->same); i++)
    {
      AguiPart *part = _agui_record_part (record, i);

      if (AGUI_IS_TEXT_PART (part))
        {
          GString *buffer = _agui_text_part_get_buffer (AGUI_TEXT_PART (part));
          PartHead part_head = { 't', buffer->len };

          key_put (key, &part_head, sizeof part_head);
          key_put (key, buffer->str, buffer->len);
        }
      else if (AGUI_IS_REASONING_PART (part))
        {
          key_add_int (key, 'r');
          key_add_string (key, agui_reasoning_part_get_text (AGUI_REASONING_PART (part)));
        }
      else if (AGUI_IS_TOOL_CALL_PART (part))
        {
          AguiToolCallPart *call = AGUI_TOOL_CALL_PART (part);

          key_add_int (key, 'c');
          key_add_string (key, agui_tool_call_part_get_tool_call_id (call));
          key_add_string (key, agui_tool_call_part_get_tool_name (call));
          key_add_string (key, agui_tool_call_part_get_arguments (call));
          key_add_string (key, _agui_tool_call_part_get_encrypted_value (call));
          key_add_metadata (key, _agui_tool_call_part_get_metadata (call));
          key_add_int (key, _agui_tool_call_part_get_has_result (call));
        }
      else
        {
          key_add_string (key, G_OBJECT_TYPE_NAME (part));
        }
    }
}

/* Messages */

static void
entry_set_message (AguiInputMessages *self,
                   Entry             *entry,
                   AguiRecord        *record)
{
  g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;

  g_clear_pointer (&entry->message, json_node_unref);
  g_clear_pointer (&entry->text, g_free);
  entry->text_len = 0;
  if (!_agui_record_to_input_message_value (record, &message))
    return;

  /* A json-glib node all the same: the run's input hands it to the
   * transport, which is public API */
  entry->message = _agui_json_value_to_node (&message);
  json_generator_set_root (self->generator, entry->message);
  entry->text = json_generator_to_data (self->generator, &entry->text_len);
  entry->stamp = ++self->next_stamp;
}

static gboolean
entry_holds (Entry      *entry,
             AguiRecord *record)
{
  Key key = { NULL, entry->key, entry->key_len, 0, TRUE };

  make_key (&key, record);
  return key.same && key.at == key.kept_len;
}

static Entry *
entry_use (AguiInputMessages *self,
           Entry             *entry,
           guint              index)
{
  if (entry->pass != self->pass)
    self->n_seen++;
  entry->pass = self->pass;

  if (index >= self->order->len)
    g_ptr_array_set_size (self->order, index + 1);
  g_ptr_array_index (self->order, index) = entry;

  return entry;
}

/* The entry of @record, record @index of the transcript, its message as
 * the record is now; NULL for a record without an id, which cannot be
 * looked up again, and, while @building, for a record whose id an
 * earlier one of the same build holds (its text is in the build's
 * pieces): the caller projects it itself. */
static Entry *
refresh (AguiInputMessages *self,
         AguiRecord        *record,
         guint              index,
         gboolean           building)
{
  Entry *entry = index < self->order->len ? g_ptr_array_index (self->order, index) : NULL;

  if (entry != NULL && entry_holds (entry, record))
    return entry_use (self, entry, index);

  if (index < self->order->len)
    g_ptr_array_index (self->order, index) = NULL;

  if (record->id == NULL)
    return NULL;

  entry = g_hash_table_lookup (self->entries, record->id);
  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      g_hash_table_insert (self->entries, g_strdup (record->id), entry);
    }
  else if (entry_holds (entry, record))
    {
      return entry_use (self, entry, index);
    }
  else if (building && entry->pass == self->pass)
    {
      return NULL;
    }

  {
    Key key = { self->key, NULL, 0, 0, TRUE };

    g_string_truncate (self->key, 0);
    make_key (&key, record);
  }
  g_free (entry->key);
  entry->key = g_memdup2 (self->key->str, self->key->len);
  entry->key_len = self->key->len;
  entry_set_message (self, entry, record);

  return entry_use (self, entry, index);
}

/* Brings the kept messages up to date for up to @budget_us microseconds,
 * so that the next send has little left to do (all of it when
 * negative). Returns whether every record was looked at; the next call
 * then starts again from the first. */
gboolean
_agui_input_messages_update (AguiInputMessages *self,
                             AguiTranscript    *transcript,
                             gint64             budget_us)
{
  gint64 deadline = budget_us >= 0 ? g_get_monotonic_time () + budget_us : G_MAXINT64;
  guint n = _agui_transcript_get_n_records (transcript);

  /* The texts are laid end to end as they come, for the next print to
   * copy in one piece (see _agui_input_messages_print()); a record with
   * no entry of its own ends what can be laid out */
  if (self->cursor == 0)
    {
      g_string_truncate (self->last_text, 0);
      g_array_set_size (self->last_printed, 0);
      self->laying_out = TRUE;
    }

  while (self->cursor < n)
    {
      AguiRecord *record = _agui_transcript_get_record (transcript, self->cursor);
      Entry *entry = NULL;

      if (record->role != AGUI_ROLE_ACTIVITY)
        {
          entry = refresh (self, record, self->cursor, FALSE);
          if (entry == NULL)
            self->laying_out = FALSE;
        }
      if (entry != NULL && entry->message != NULL && self->laying_out)
        {
          Printed printed;

          if (self->last_printed->len > 0)
            g_string_append_c (self->last_text, ',');
          g_string_append_len (self->last_text, entry->text, entry->text_len);
          printed.stamp = entry->stamp;
          printed.end = self->last_text->len;
          g_array_append_val (self->last_printed, printed);
        }
      self->cursor++;

      if ((self->cursor & 0x1f) == 0 && g_get_monotonic_time () >= deadline)
        return self->cursor >= n;
    }

  self->cursor = 0;
  return TRUE;
}

static gboolean
entry_unseen (gpointer key,
              gpointer value,
              gpointer user_data)
{
  Entry *entry = value;
  AguiInputMessages *self = user_data;

  return entry->pass != self->pass;
}

/* The messages of a run's input, as agui_transcript_to_messages
 * (transcript, FALSE) gives them, sharing the kept nodes. Messages the
 * transcript no longer holds are let go. */
JsonArray *
_agui_input_messages_build (AguiInputMessages *self,
                            AguiTranscript    *transcript)
{
  guint n = _agui_transcript_get_n_records (transcript);
  JsonArray *messages = json_array_sized_new (n);

  self->pass++;
  self->n_seen = 0;
  g_array_set_size (self->pieces, 0);
  g_ptr_array_set_size (self->own_texts, 0);

  for (guint i = 0; i < n; i++)
    {
      AguiRecord *record = _agui_transcript_get_record (transcript, i);
      Entry *entry;
      Piece piece;

      if (record->role == AGUI_ROLE_ACTIVITY)
        {
          if (i < self->order->len)
            g_ptr_array_index (self->order, i) = NULL;
          continue;
        }

      if ((entry = refresh (self, record, i, TRUE)) != NULL)
        {
          if (entry->message == NULL)
            continue;

          json_array_add_element (messages, json_node_ref (entry->message));
          piece.text = entry->text;
          piece.len = entry->text_len;
          piece.stamp = entry->stamp;
        }
      else
        {
          g_auto(AguiJsonValue) message = AGUI_JSON_VALUE_INIT;
          JsonNode *own;
          char *own_text;

          if (!_agui_record_to_input_message_value (record, &message))
            continue;

          own = _agui_json_value_to_node (&message);
          json_generator_set_root (self->generator, own);
          own_text = json_generator_to_data (self->generator, &piece.len);
          piece.text = own_text;
          piece.stamp = 0;
          g_ptr_array_add (self->own_texts, own_text);
          json_array_add_element (messages, own);
        }

      g_array_append_val (self->pieces, piece);
    }

  /* Every place in the order is this build's now: none names an entry
   * let go below */
  g_ptr_array_set_size (self->order, n);
  if (self->n_seen < g_hash_table_size (self->entries))
    g_hash_table_foreach_remove (self->entries, entry_unseen, self);
  self->cursor = 0;

  return messages;
}

/* Appends the messages of the last build as json_to_string() prints an
 * array of them. Valid until the next build or update.
 *
 * Each message's text is an allocation of its own, and copying 20,000
 * of them, one cache miss each, cost 4 ms. A send mostly begins with
 * the messages the last one (or the updates since) had, and their texts
 * were laid end to end then: that run is copied in one piece. A text is known by its stamp,
 * which no other text ever had (an entry made again gets a new one). */
void
_agui_input_messages_print (AguiInputMessages *self,
                            GString           *text)
{
  gsize len = text->len + 2 + self->pieces->len;
  guint same = 0;
  gsize start;

  for (guint i = 0; i < self->pieces->len; i++)
    len += g_array_index (self->pieces, Piece, i).len;
  /* Growing 3 MB of text by doubling copies it twice over */
  if (len > text->allocated_len)
    {
      gsize before = text->len;

      g_string_set_size (text, len);
      g_string_set_size (text, before);
    }

  while (same < self->pieces->len && same < self->last_printed->len &&
         g_array_index (self->pieces, Piece, same).stamp != 0 &&
         g_array_index (self->pieces, Piece, same).stamp == g_array_index (self->last_printed, Printed, same).stamp)
    same++;

  g_string_append_c (text, '[');
  start = text->len;
  if (same > 0)
    g_string_append_len (text, self->last_text->str, g_array_index (self->last_printed, Printed, same - 1).end);
  g_array_set_size (self->last_printed, same);

  for (guint i = same; i < self->pieces->len; i++)
    {
      const Piece *piece = &g_array_index (self->pieces, Piece, i);
      Printed printed;

      if (i > 0)
        g_string_append_c (text, ',');
      g_string_append_len (text, piece->text, piece->len);
      printed.stamp = piece->stamp;
      printed.end = text->len - start;
      g_array_append_val (self->last_printed, printed);
    }

  g_string_truncate (self->last_text, 0);
  g_string_append_len (self->last_text, text->str + start, text->len - start);
  g_string_append_c (text, ']');
}
