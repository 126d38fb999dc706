/* tandem-block-list.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tandem-block-list.h"
#include "tandem-block-splitter.h"

/**
 * TandemBlockList:
 *
 * The transcript as the view draws it: a [iface@Gio.ListModel] of
 * [class@Tandem.Block], derived from an [class@Agui.Transcript] as it
 * changes. A person's message is one block; an agent's turn is a block
 * per part, and its Markdown text a block per stretch that
 * [struct@Tandem.BlockSplitter] finds, so that no row of the view grows
 * much taller than the window however long the answer.
 *
 * The transcript stays the model of record. A streamed delta costs the
 * splitter's look at the new bytes and one #TandemBlock::changed on the
 * last block; a new block is one items-changed at its place.
 *
 * A long transcript (a conversation reopened) is taken in from its end:
 * the last messages' blocks at once, the older ones put in front a slice
 * at a time from the main loop, each slice one items-changed at 0, which
 * a view showing the end takes without moving. A jump to an older
 * message takes them all in first.
 */

/* How many blocks a long transcript starts with: more than the view
 * shows of it at first (OPEN_BLOCKS) */
#define TAIL_BLOCKS 64
/* Messages built at a time, and the main loop's time for a slice */
#define FILL_CHUNK 16
#define FILL_SLICE_US 3000

typedef struct _MessageEntry MessageEntry;

typedef struct
{
  TandemBlockList     *list;
  MessageEntry        *message;
  AguiPart            *part;
  TandemBlockSplitter *splitter;  /* an agent's Markdown only */
  gsize                length;    /* of the text split so far */
  guint                n_blocks;
} PartEntry;

struct _MessageEntry
{
  TandemBlockList *list;
  AguiSpeakerTurn *message;
  GListModel      *parts;
  GPtrArray       *part_entries;  /* of PartEntry */
  guint            n_blocks;
};

struct _TandemBlockList
{
  GObject         parent_instance;

  AguiTranscript *transcript;
  /* The transcript and the conversation the blocks are drawn in, for
   * their widgets */
  TandemBlockContext *context;
  GPtrArray      *messages;  /* of MessageEntry, from the transcript's @base on */
  GPtrArray      *blocks;    /* of TandemBlock */
  /* How many of the transcript's first messages are not taken in yet */
  guint           base;
  guint           fill_id;
};

static void tandem_block_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TandemBlockList, tandem_block_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, tandem_block_list_model_init))

enum { PROP_0, PROP_TRANSCRIPT, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* Where things are in the flat list */

static guint
message_offset (TandemBlockList *self,
                MessageEntry    *entry)
{
  guint offset = 0;

  for (guint i = 0; i < self->messages->len; i++)
    {
      MessageEntry *other = g_ptr_array_index (self->messages, i);

      if (other == entry)
        return offset;
      offset += other->n_blocks;
    }

  g_assert_not_reached ();
}

static guint
part_offset (PartEntry *entry)
{
  MessageEntry *message = entry->message;
  guint offset = message_offset (entry->list, message);

  for (guint i = 0; i < message->part_entries->len; i++)
    {
      PartEntry *other = g_ptr_array_index (message->part_entries, i);

      if (other == entry)
        return offset;
      offset += other->n_blocks;
    }

  g_assert_not_reached ();
}

/* Streaming happens at the end, so look from there. */
static guint
part_offset_from_end (PartEntry *entry)
{
  TandemBlockList *self = entry->list;

  if (self->blocks->len > 0)
    {
      TandemBlock *last = g_ptr_array_index (self->blocks, self->blocks->len - 1);

      if (tandem_block_get_part (last) == entry->part)
        return self->blocks->len - entry->n_blocks;
    }

  return part_offset (entry);
}

static void message_entry_mark_first (TandemBlockList *self,
                                      MessageEntry    *entry,
                                      guint            offset);

/* Making blocks */

static TandemBlockKind
kind_for_part (AguiRole  role,
               AguiPart *part)
{
  if (AGUI_IS_TEXT_PART (part))
    return role == AGUI_ROLE_ASSISTANT ? TANDEM_BLOCK_MARKDOWN : TANDEM_BLOCK_TEXT;
  if (AGUI_IS_REASONING_PART (part))
    return TANDEM_BLOCK_REASONING;
  if (AGUI_IS_TOOL_CALL_PART (part))
    return TANDEM_BLOCK_TOOL_CALL;
  if (AGUI_IS_ACTIVITY_PART (part))
    return TANDEM_BLOCK_ACTIVITY;
  if (AGUI_IS_MEDIA_PART (part))
    return TANDEM_BLOCK_MEDIA;

  return TANDEM_BLOCK_TEXT;
}

/* Appends to @out the blocks for the text of a Markdown part from scratch */
static void
part_entry_split (PartEntry *entry,
                  GPtrArray *out)
{
  AguiTextPart *part = AGUI_TEXT_PART (entry->part);
  const char *text = agui_text_part_get_text (part);
  gsize length = agui_text_part_get_length (part);
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (TandemBlockCut));
  gsize start = 0;
  gboolean continued = FALSE;

  g_clear_pointer (&entry->splitter, tandem_block_splitter_free);
  entry->splitter = tandem_block_splitter_new ();
  tandem_block_splitter_feed (entry->splitter, text != NULL ? text : "", length,
                              agui_part_get_complete (entry->part), cuts);
  if (tandem_block_splitter_get_whole (entry->splitter))
    g_array_set_size (cuts, 0);

  for (guint i = 0; i <= cuts->len; i++)
    {
      TandemBlock *block = tandem_block_new (TANDEM_BLOCK_MARKDOWN, entry->message->message, entry->part);
      gsize end = i < cuts->len ? g_array_index (cuts, TandemBlockCut, i).offset : G_MAXSIZE;

      tandem_block_set_range (block, start, end, continued);
      g_ptr_array_add (out, block);
      if (i < cuts->len)
        {
          start = end;
          continued = g_array_index (cuts, TandemBlockCut, i).continued;
        }
    }

  entry->n_blocks = cuts->len + 1;
  entry->length = length;
}

static void
on_text_changed_cb (AguiPart   *part,
                    GParamSpec *pspec,
                    PartEntry  *entry)
{
  TandemBlockList *self = entry->list;
  AguiTextPart *text_part = AGUI_TEXT_PART (part);
  const char *text = agui_text_part_get_text (text_part);
  gsize length = agui_text_part_get_length (text_part);
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (TandemBlockCut));
  gboolean was_whole = tandem_block_splitter_get_whole (entry->splitter);
  TandemBlock *last;
  guint offset;

  /* Let go with its list (see release_messages()) */
  if (self == NULL)
    return;

  offset = part_offset_from_end (entry);
  last = g_ptr_array_index (self->blocks, offset + entry->n_blocks - 1);

  if (length < entry->length)
    {
      /* Not an append: the text was replaced, split it again */
      g_autoptr(GPtrArray) new_blocks = g_ptr_array_new_with_free_func (g_object_unref);
      guint removed = entry->n_blocks;

      part_entry_split (entry, new_blocks);
      g_ptr_array_remove_range (self->blocks, offset, removed);
      for (guint i = 0; i < new_blocks->len; i++)
        g_ptr_array_insert (self->blocks, offset + i, g_object_ref (g_ptr_array_index (new_blocks, i)));
      entry->message->n_blocks = entry->message->n_blocks - removed + new_blocks->len;
      message_entry_mark_first (self, entry->message, message_offset (self, entry->message));
      g_list_model_items_changed (G_LIST_MODEL (self), offset, removed, new_blocks->len);
      return;
    }
  entry->length = length;

  tandem_block_splitter_feed (entry->splitter, text != NULL ? text : "", length,
                              agui_part_get_complete (part), cuts);

  if (!was_whole && tandem_block_splitter_get_whole (entry->splitter) && entry->n_blocks > 1)
    {
      /* A definition resolves links in every block: show the text whole */
      guint removed = entry->n_blocks - 1;

      g_ptr_array_remove_range (self->blocks, offset + 1, removed);
      entry->n_blocks = 1;
      entry->message->n_blocks -= removed;
      tandem_block_set_range (g_ptr_array_index (self->blocks, offset), 0, G_MAXSIZE, FALSE);
      g_list_model_items_changed (G_LIST_MODEL (self), offset + 1, removed, 0);
      return;
    }

  if (cuts->len == 0 || tandem_block_splitter_get_whole (entry->splitter))
    {
      tandem_block_text_changed (last);
      return;
    }

  {
    guint position = offset + entry->n_blocks;
    gsize start;

    /* The block that was growing ends at the first cut; its range change
     * is its last update. */
    tandem_block_set_range (last, tandem_block_get_start (last), g_array_index (cuts, TandemBlockCut, 0).offset,
                            tandem_block_get_continued (last));

    start = g_array_index (cuts, TandemBlockCut, 0).offset;
    for (guint i = 0; i < cuts->len; i++)
      {
        TandemBlock *block = tandem_block_new (TANDEM_BLOCK_MARKDOWN, entry->message->message, part);
        gsize end = i + 1 < cuts->len ? g_array_index (cuts, TandemBlockCut, i + 1).offset : G_MAXSIZE;

        tandem_block_set_range (block, start, end, g_array_index (cuts, TandemBlockCut, i).continued);
        tandem_block_set_context (block, self->context);
        g_ptr_array_insert (self->blocks, position + i, block);
        start = end;
      }

    entry->n_blocks += cuts->len;
    entry->message->n_blocks += cuts->len;
    g_list_model_items_changed (G_LIST_MODEL (self), position, 0, cuts->len);
  }
}

static void
part_entry_free (PartEntry *entry)
{
  g_signal_handlers_disconnect_by_data (entry->part, entry);
  g_clear_object (&entry->part);
  g_clear_pointer (&entry->splitter, tandem_block_splitter_free);
  g_free (entry);
}

static PartEntry *
part_entry_new (MessageEntry *message,
                AguiPart     *part,
                GPtrArray    *out)
{
  PartEntry *entry = g_new0 (PartEntry, 1);
  AguiRole role = agui_speaker_turn_get_role (message->message);
  TandemBlockKind kind = kind_for_part (role, part);

  entry->list = message->list;
  entry->message = message;
  entry->part = g_object_ref (part);

  if (kind == TANDEM_BLOCK_MARKDOWN)
    {
      part_entry_split (entry, out);
      g_signal_connect (part, "notify::text", G_CALLBACK (on_text_changed_cb), entry);
      g_signal_connect (part, "notify::complete", G_CALLBACK (on_text_changed_cb), entry);
    }
  else
    {
      g_ptr_array_add (out, tandem_block_new (kind, message->message, part));
      entry->n_blocks = 1;
    }

  return entry;
}

static void
message_entry_mark_first (TandemBlockList *self,
                          MessageEntry    *entry,
                          guint            offset)
{
  for (guint i = 0; i < entry->n_blocks; i++)
    tandem_block_set_first (g_ptr_array_index (self->blocks, offset + i), i == 0);
}

static void
on_parts_changed_cb (GListModel   *parts,
                     guint         position,
                     guint         removed,
                     guint         added,
                     MessageEntry *entry)
{
  TandemBlockList *self = entry->list;
  g_autoptr(GPtrArray) new_blocks = NULL;
  guint offset;
  guint first;
  guint removed_blocks = 0;

  /* Let go with its list (see release_messages()) */
  if (self == NULL)
    return;

  new_blocks = g_ptr_array_new_with_free_func (g_object_unref);
  offset = message_offset (self, entry);
  first = offset;

  for (guint i = 0; i < position; i++)
    first += ((PartEntry *) g_ptr_array_index (entry->part_entries, i))->n_blocks;
  for (guint i = 0; i < removed; i++)
    removed_blocks += ((PartEntry *) g_ptr_array_index (entry->part_entries, position + i))->n_blocks;

  g_ptr_array_remove_range (entry->part_entries, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(AguiPart) part = g_list_model_get_item (parts, position + i);

      g_ptr_array_insert (entry->part_entries, position + i, part_entry_new (entry, part, new_blocks));
    }

  g_ptr_array_remove_range (self->blocks, first, removed_blocks);
  for (guint i = 0; i < new_blocks->len; i++)
    {
      tandem_block_set_context (g_ptr_array_index (new_blocks, i), self->context);
      g_ptr_array_insert (self->blocks, first + i, g_object_ref (g_ptr_array_index (new_blocks, i)));
    }
  entry->n_blocks = entry->n_blocks - removed_blocks + new_blocks->len;
  message_entry_mark_first (self, entry, offset);

  g_list_model_items_changed (G_LIST_MODEL (self), first, removed_blocks, new_blocks->len);
}

static void
message_entry_free (MessageEntry *entry)
{
  if (entry->parts != NULL)
    g_signal_handlers_disconnect_by_data (entry->parts, entry);
  g_clear_pointer (&entry->part_entries, g_ptr_array_unref);
  g_clear_object (&entry->parts);
  g_clear_object (&entry->message);
  g_free (entry);
}

static MessageEntry *
message_entry_new (TandemBlockList *self,
                   AguiSpeakerTurn *message,
                   GPtrArray       *out)
{
  MessageEntry *entry = g_new0 (MessageEntry, 1);
  guint before = out->len;

  entry->list = self;
  entry->message = g_object_ref (message);
  entry->part_entries = g_ptr_array_new_with_free_func ((GDestroyNotify) part_entry_free);

  if (agui_speaker_turn_get_role (message) == AGUI_ROLE_USER)
    {
      /* Drawn whole, by a row that follows the parts itself */
      g_ptr_array_add (out, tandem_block_new (TANDEM_BLOCK_USER, message, NULL));
    }
  else
    {
      entry->parts = g_object_ref (agui_speaker_turn_get_parts (message));
      for (guint i = 0; i < g_list_model_get_n_items (entry->parts); i++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (entry->parts, i);

          g_ptr_array_add (entry->part_entries, part_entry_new (entry, part, out));
        }
      g_signal_connect (entry->parts, "items-changed", G_CALLBACK (on_parts_changed_cb), entry);
    }

  entry->n_blocks = out->len - before;
  if (entry->n_blocks > 0)
    tandem_block_set_first (g_ptr_array_index (out, before), TRUE);

  return entry;
}

static void
on_messages_changed_cb (TandemBlockList *self,
                        guint            position,
                        guint            removed,
                        guint            added,
                        GListModel      *messages)
{
  g_autoptr(GPtrArray) new_blocks = g_ptr_array_new_with_free_func (g_object_unref);
  guint first = 0;
  guint removed_blocks = 0;

  /* A change among the messages not taken in yet: they are taken in
   * later, as they are then */
  if (position + removed <= self->base && self->base > 0)
    {
      self->base = self->base - removed + added;
      return;
    }
  if (position < self->base)
    {
      removed = position + removed - self->base;
      self->base = position;
    }
  position -= self->base;

  for (guint i = 0; i < position; i++)
    first += ((MessageEntry *) g_ptr_array_index (self->messages, i))->n_blocks;
  for (guint i = 0; i < removed; i++)
    removed_blocks += ((MessageEntry *) g_ptr_array_index (self->messages, position + i))->n_blocks;

  g_ptr_array_remove_range (self->messages, position, removed);
  for (guint i = 0; i < added; i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (messages, self->base + position + i);

      g_ptr_array_insert (self->messages, position + i, message_entry_new (self, message, new_blocks));
    }

  g_ptr_array_remove_range (self->blocks, first, removed_blocks);
  for (guint i = 0; i < new_blocks->len; i++)
    {
      tandem_block_set_context (g_ptr_array_index (new_blocks, i), self->context);
      g_ptr_array_insert (self->blocks, first + i, g_object_ref (g_ptr_array_index (new_blocks, i)));
    }

  if (removed_blocks > 0 || new_blocks->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first, removed_blocks, new_blocks->len);
}

/* Puts @items in front of @array, which takes them over */
static void
prepend_all (GPtrArray *array,
             GPtrArray *items)
{
  guint old = array->len;

  g_ptr_array_set_size (array, old + items->len);
  memmove (array->pdata + items->len, array->pdata, old * sizeof (gpointer));
  memcpy (array->pdata, items->pdata, items->len * sizeof (gpointer));
}

/* Takes in the @n messages before the first one taken in, their blocks
 * put in front */
static void
fill_chunk (TandemBlockList *self,
            guint            n)
{
  GListModel *messages = G_LIST_MODEL (self->transcript);
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  g_autoptr(GPtrArray) new_blocks = g_ptr_array_new ();
  guint start = self->base - MIN (n, self->base);

  for (guint i = start; i < self->base; i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (messages, i);

      g_ptr_array_add (entries, message_entry_new (self, message, new_blocks));
    }
  for (guint i = 0; i < new_blocks->len; i++)
    tandem_block_set_context (g_ptr_array_index (new_blocks, i), self->context);

  prepend_all (self->messages, entries);
  prepend_all (self->blocks, new_blocks);
  self->base = start;
}

static void
fill_all (TandemBlockList *self)
{
  guint before = self->blocks->len;

  g_clear_handle_id (&self->fill_id, g_source_remove);
  if (self->base == 0)
    return;

  fill_chunk (self, self->base);
  if (self->blocks->len > before)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, self->blocks->len - before);
}

static gboolean
fill_slice (gpointer user_data)
{
  TandemBlockList *self = user_data;
  gint64 deadline = g_get_monotonic_time () + FILL_SLICE_US;
  guint before = self->blocks->len;

  while (self->base > 0 && g_get_monotonic_time () < deadline)
    fill_chunk (self, FILL_CHUNK);
  if (self->blocks->len > before)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, self->blocks->len - before);

  if (self->base > 0)
    return G_SOURCE_CONTINUE;

  self->fill_id = 0;
  return G_SOURCE_REMOVE;
}

/* GListModel */

static GType
tandem_block_list_get_item_type (GListModel *model)
{
  return TANDEM_TYPE_BLOCK;
}

static guint
tandem_block_list_get_n_items (GListModel *model)
{
  return TANDEM_BLOCK_LIST (model)->blocks->len;
}

static gpointer
tandem_block_list_get_item (GListModel *model,
                            guint       position)
{
  TandemBlockList *self = TANDEM_BLOCK_LIST (model);

  if (position >= self->blocks->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->blocks, position));
}

static void
tandem_block_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = tandem_block_list_get_item_type;
  iface->get_n_items = tandem_block_list_get_n_items;
  iface->get_item = tandem_block_list_get_item;
}

/* GObject */

static void
tandem_block_list_constructed (GObject *object)
{
  TandemBlockList *self = TANDEM_BLOCK_LIST (object);

  G_OBJECT_CLASS (tandem_block_list_parent_class)->constructed (object);

  g_assert (AGUI_IS_TRANSCRIPT (self->transcript));
  self->context = tandem_block_context_new (self->transcript);

  g_signal_connect_object (self->transcript, "items-changed",
                           G_CALLBACK (on_messages_changed_cb), self, G_CONNECT_SWAPPED);

  /* The end first, then the rest from the main loop */
  self->base = g_list_model_get_n_items (G_LIST_MODEL (self->transcript));
  while (self->base > 0 && self->blocks->len < TAIL_BLOCKS)
    fill_chunk (self, FILL_CHUNK);
  if (self->base > 0)
    {
      /* Not an idle: a window that draws all the time would starve it */
      self->fill_id = g_timeout_add_full (G_PRIORITY_DEFAULT, 1, fill_slice, self, NULL);
      g_source_set_name_by_id (self->fill_id, "[tandem] block list fill");
    }
}

/* Messages or blocks let go at one turn of the main loop: a few
 * milliseconds */
#define RELEASE_SLICE 1000

static gboolean
release_slice (gpointer user_data)
{
  GPtrArray *array = user_data;
  guint n = MIN (array->len, RELEASE_SLICE);

  g_ptr_array_remove_range (array, array->len - n, n);

  return array->len > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
release_in_slices (GPtrArray *array)
{
  if (array->len <= RELEASE_SLICE)
    g_ptr_array_unref (array);
  else
    g_idle_add_full (G_PRIORITY_LOW, release_slice, array, (GDestroyNotify) g_ptr_array_unref);
}

/* Letting go of a long conversation's messages at once (their handlers
 * disconnected one by one) held the main loop for 20 ms when the person
 * switched to another, and its blocks 10 ms more: a few are let go at
 * each turn instead. The parts may still change meanwhile, if the
 * conversation runs on in the background; an entry without its list
 * ignores that. */
static void
release_messages (GPtrArray *messages)
{
  for (guint i = 0; i < messages->len; i++)
    {
      MessageEntry *entry = g_ptr_array_index (messages, i);

      entry->list = NULL;
      for (guint j = 0; j < entry->part_entries->len; j++)
        ((PartEntry *) g_ptr_array_index (entry->part_entries, j))->list = NULL;
    }
  release_in_slices (messages);
}

static void
tandem_block_list_dispose (GObject *object)
{
  TandemBlockList *self = TANDEM_BLOCK_LIST (object);

  g_clear_handle_id (&self->fill_id, g_source_remove);
  if (self->transcript != NULL)
    g_signal_handlers_disconnect_by_data (self->transcript, self);
  if (self->messages != NULL)
    release_messages (g_steal_pointer (&self->messages));
  if (self->blocks != NULL)
    release_in_slices (g_steal_pointer (&self->blocks));
  g_clear_object (&self->transcript);
  g_clear_pointer (&self->context, tandem_block_context_unref);

  G_OBJECT_CLASS (tandem_block_list_parent_class)->dispose (object);
}

static void
tandem_block_list_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TandemBlockList *self = TANDEM_BLOCK_LIST (object);

  switch (prop_id)
    {
    case PROP_TRANSCRIPT:
      g_value_set_object (value, self->transcript);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_list_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TandemBlockList *self = TANDEM_BLOCK_LIST (object);

  switch (prop_id)
    {
    case PROP_TRANSCRIPT:
      self->transcript = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_list_class_init (TandemBlockListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = tandem_block_list_constructed;
  object_class->dispose = tandem_block_list_dispose;
  object_class->get_property = tandem_block_list_get_property;
  object_class->set_property = tandem_block_list_set_property;

  properties[PROP_TRANSCRIPT] =
    g_param_spec_object ("transcript", NULL, NULL, AGUI_TYPE_TRANSCRIPT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tandem_block_list_init (TandemBlockList *self)
{
  self->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) message_entry_free);
  self->blocks = g_ptr_array_new_with_free_func (g_object_unref);
}

TandemBlockList *
tandem_block_list_new (AguiTranscript *transcript)
{
  g_return_val_if_fail (AGUI_IS_TRANSCRIPT (transcript), NULL);

  return g_object_new (TANDEM_TYPE_BLOCK_LIST, "transcript", transcript, NULL);
}

/**
 * tandem_block_list_get_transcript:
 * @self: a block list
 *
 * Returns: (transfer none): the transcript the blocks are drawn from
 */
AguiTranscript *
tandem_block_list_get_transcript (TandemBlockList *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK_LIST (self), NULL);

  return self->transcript;
}

/**
 * tandem_block_list_set_session:
 * @self: a block list
 * @session: (nullable): the conversation the transcript is of
 *
 * The blocks carry @session to their rows, whose widgets send to the
 * agent (an A2UI surface's actions) and keep what the person set there.
 */
void
tandem_block_list_set_session (TandemBlockList  *self,
                               AguiAgentSession *session)
{
  g_return_if_fail (TANDEM_IS_BLOCK_LIST (self));
  g_return_if_fail (!session || AGUI_IS_AGENT_SESSION (session));

  tandem_block_context_set_session (self->context, session);
}

/**
 * tandem_block_list_take_all:
 * @self: a block list
 *
 * Takes in at once the older messages of a long transcript that the
 * main loop would put in front a slice at a time, for what must see
 * every block now (a search).
 */
void
tandem_block_list_take_all (TandemBlockList *self)
{
  g_return_if_fail (TANDEM_IS_BLOCK_LIST (self));

  fill_all (self);
}

/**
 * tandem_block_list_find_message:
 * @self: a block list
 * @message: a message of the transcript
 *
 * Returns: the position of @message's first block, or %G_MAXUINT when it
 *   has none
 */
guint
tandem_block_list_find_message (TandemBlockList *self,
                                AguiSpeakerTurn *message)
{
  guint offset = 0;

  g_return_val_if_fail (TANDEM_IS_BLOCK_LIST (self), G_MAXUINT);

  /* A jump to a message may be far back */
  fill_all (self);
  for (guint i = 0; i < self->messages->len; i++)
    {
      MessageEntry *entry = g_ptr_array_index (self->messages, i);

      if (entry->message == message)
        return entry->n_blocks > 0 ? offset : G_MAXUINT;
      offset += entry->n_blocks;
    }

  return G_MAXUINT;
}

/* Blocks of one failed attempt: back from its last block, over blocks of
 * failed parts, up to the person's message or the end of an earlier
 * attempt. */
static gboolean
is_end_of_attempt (TandemBlock *block)
{
  AguiPart *part = tandem_block_get_part (block);

  return part != NULL && agui_part_get_attempt_end (part) && tandem_block_get_last_of_part (block);
}

/**
 * tandem_block_list_set_attempt_collapsed:
 * @self: a block list
 * @end: the last block of a failed attempt
 * @collapsed: whether to fold the attempt away
 *
 * Folds every block of the failed attempt that @end closes, or shows them
 * again.
 */
void
tandem_block_list_set_attempt_collapsed (TandemBlockList *self,
                                         TandemBlock     *end,
                                         gboolean         collapsed)
{
  guint index;

  g_return_if_fail (TANDEM_IS_BLOCK_LIST (self));
  g_return_if_fail (TANDEM_IS_BLOCK (end));

  /* A person's click, so a walk from the end is cheap enough */
  for (index = self->blocks->len; index > 0; index--)
    if (g_ptr_array_index (self->blocks, index - 1) == end)
      break;
  if (index == 0)
    return;

  for (guint i = index; i > 0; i--)
    {
      TandemBlock *block = g_ptr_array_index (self->blocks, i - 1);
      AguiPart *part = tandem_block_get_part (block);

      if (part == NULL || agui_part_get_attempt (part) != AGUI_ATTEMPT_FAILED)
        break;
      if (i != index && is_end_of_attempt (block))
        break;

      tandem_block_set_collapsed (block, collapsed);
    }
}
