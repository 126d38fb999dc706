/* tandem-block.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-block.h"

/**
 * TandemBlock:
 *
 * One row of the transcript view: a message of the person's, or one piece
 * of an agent's turn (a stretch of its Markdown, a reasoning section, a
 * tool card, ...). A block holds no widget. A Markdown block is a range of
 * its text part's bytes; the last block of a streaming part has no end
 * yet and grows with the part, and says so with [signal@Tandem.Block::changed].
 */

#define OPEN_END G_MAXSIZE

/* What every block of one list shares: a weak pointer each to the
 * transcript and to the conversation, held once. A weak pointer per
 * block put 10,000 weak references on each, and GObject looks one up by
 * walking them all: letting a long conversation's blocks go took the
 * square of their number. */
struct _TandemBlockContext
{
  grefcount         ref_count;
  AguiTranscript   *transcript;
  AguiAgentSession *session;
};

TandemBlockContext *
tandem_block_context_new (AguiTranscript *transcript)
{
  TandemBlockContext *context = g_new0 (TandemBlockContext, 1);

  g_ref_count_init (&context->ref_count);
  g_set_weak_pointer (&context->transcript, transcript);

  return context;
}

TandemBlockContext *
tandem_block_context_ref (TandemBlockContext *context)
{
  g_ref_count_inc (&context->ref_count);

  return context;
}

void
tandem_block_context_unref (TandemBlockContext *context)
{
  if (!g_ref_count_dec (&context->ref_count))
    return;

  g_clear_weak_pointer (&context->transcript);
  g_clear_weak_pointer (&context->session);
  g_free (context);
}

void
tandem_block_context_set_session (TandemBlockContext *context,
                                  AguiAgentSession   *session)
{
  g_return_if_fail (!session || AGUI_IS_AGENT_SESSION (session));

  g_set_weak_pointer (&context->session, session);
}

struct _TandemBlock
{
  GObject          parent_instance;

  TandemBlockKind  kind;
  AguiSpeakerTurn *message;
  AguiPart        *part;
  /* Its transcript, for what the row asks of the whole thread (its
   * branches), and its conversation, for what a part's widget sends the
   * agent (an A2UI action) */
  TandemBlockContext *context;
  gsize            start;
  gsize            end;
  guint            first : 1;
  guint            continued : 1;
  guint            collapsed : 1;
};

G_DEFINE_FINAL_TYPE (TandemBlock, tandem_block, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

enum { PROP_0, PROP_COLLAPSED, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
tandem_block_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TandemBlock *self = TANDEM_BLOCK (object);

  switch (prop_id)
    {
    case PROP_COLLAPSED:
      g_value_set_boolean (value, self->collapsed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tandem_block_dispose (GObject *object)
{
  TandemBlock *self = TANDEM_BLOCK (object);

  g_clear_object (&self->message);
  g_clear_object (&self->part);
  g_clear_pointer (&self->context, tandem_block_context_unref);

  G_OBJECT_CLASS (tandem_block_parent_class)->dispose (object);
}

static void
tandem_block_class_init (TandemBlockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tandem_block_dispose;
  object_class->get_property = tandem_block_get_property;

  /**
   * TandemBlock:collapsed:
   *
   * Whether the block belongs to a failed attempt the person folded away.
   */
  properties[PROP_COLLAPSED] =
    g_param_spec_boolean ("collapsed", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TandemBlock::changed:
   *
   * The text the block shows changed: text was appended to the part it
   * ends with, or its range moved.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tandem_block_init (TandemBlock *self)
{
  self->end = OPEN_END;
}

TandemBlock *
tandem_block_new (TandemBlockKind  kind,
                  AguiSpeakerTurn *message,
                  AguiPart        *part)
{
  TandemBlock *self;

  g_return_val_if_fail (AGUI_IS_SPEAKER_TURN (message), NULL);
  g_return_val_if_fail (part == NULL || AGUI_IS_PART (part), NULL);

  self = g_object_new (TANDEM_TYPE_BLOCK, NULL);
  self->kind = kind;
  self->message = g_object_ref (message);
  g_set_object (&self->part, part);

  return self;
}

TandemBlockKind
tandem_block_get_kind (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), TANDEM_BLOCK_TEXT);

  return self->kind;
}

/**
 * tandem_block_get_message:
 * @self: a block
 *
 * Returns: (transfer none): the message the block belongs to
 */
AguiSpeakerTurn *
tandem_block_get_message (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), NULL);

  return self->message;
}

/**
 * tandem_block_get_part:
 * @self: a block
 *
 * Returns: (transfer none) (nullable): the part shown, %NULL for a
 *   message of the person's, which is shown whole
 */
AguiPart *
tandem_block_get_part (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), NULL);

  return self->part;
}

/**
 * tandem_block_get_first:
 * @self: a block
 *
 * Returns: whether the block is the first of its message
 */
gboolean
tandem_block_get_first (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), FALSE);

  return self->first;
}

/**
 * tandem_block_get_continued:
 * @self: a block
 *
 * Returns: whether the block goes on with the paragraph of the block
 *   before it, cut only to keep rows short
 */
gboolean
tandem_block_get_continued (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), FALSE);

  return self->continued;
}

/**
 * tandem_block_get_start:
 * @self: a Markdown or text block
 *
 * Returns: where the block's text starts in its part's text, in bytes
 */
gsize
tandem_block_get_start (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), 0);

  return self->start;
}

/**
 * tandem_block_get_last_of_part:
 * @self: a block
 *
 * Returns: whether the block is the last one drawing its part: always,
 *   but for the stretches of a Markdown text before its last
 */
gboolean
tandem_block_get_last_of_part (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), TRUE);

  return self->end == OPEN_END;
}

/**
 * tandem_block_peek_text:
 * @self: a Markdown or text block
 * @length: (out): the length of the block's text in bytes
 *
 * The text of a block is a range of its part's text, so this is not
 * nul-terminated unless the block is the part's last.
 *
 * Returns: (transfer none) (nullable): the start of the block's text
 */
const char *
tandem_block_peek_text (TandemBlock *self,
                        gsize       *length)
{
  const char *text;
  gsize total;
  gsize end;

  g_return_val_if_fail (TANDEM_IS_BLOCK (self), NULL);
  g_return_val_if_fail (length != NULL, NULL);

  *length = 0;
  if (!AGUI_IS_TEXT_PART (self->part))
    return NULL;

  text = agui_text_part_get_text (AGUI_TEXT_PART (self->part));
  total = agui_text_part_get_length (AGUI_TEXT_PART (self->part));
  if (text == NULL)
    return NULL;

  end = MIN (self->end, total);
  if (self->start > end)
    return NULL;

  *length = end - self->start;

  return text + self->start;
}

void
tandem_block_set_first (TandemBlock *self,
                        gboolean     first)
{
  g_return_if_fail (TANDEM_IS_BLOCK (self));

  self->first = !!first;
}

/* @end is G_MAXSIZE for the last block of a part, which grows with it */
void
tandem_block_set_range (TandemBlock *self,
                        gsize        start,
                        gsize        end,
                        gboolean     continued)
{
  g_return_if_fail (TANDEM_IS_BLOCK (self));

  if (self->start == start && self->end == end && self->continued == !!continued)
    return;

  self->start = start;
  self->end = end;
  self->continued = !!continued;
  g_signal_emit (self, signals[CHANGED], 0);
}

void
tandem_block_text_changed (TandemBlock *self)
{
  g_return_if_fail (TANDEM_IS_BLOCK (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * tandem_block_get_transcript:
 * @self: a block
 *
 * Returns: (transfer none) (nullable): the transcript the block was drawn
 *   from, while it lives
 */
AguiTranscript *
tandem_block_get_transcript (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), NULL);

  return self->context != NULL ? self->context->transcript : NULL;
}

void
tandem_block_set_context (TandemBlock        *self,
                          TandemBlockContext *context)
{
  g_return_if_fail (TANDEM_IS_BLOCK (self));

  if (context != NULL)
    tandem_block_context_ref (context);
  g_clear_pointer (&self->context, tandem_block_context_unref);
  self->context = context;
}

/**
 * tandem_block_get_session:
 * @self: a block
 *
 * Returns: (transfer none) (nullable): the conversation the block was
 *   drawn in, while it lives
 */
AguiAgentSession *
tandem_block_get_session (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), NULL);

  return self->context != NULL ? self->context->session : NULL;
}

gboolean
tandem_block_get_collapsed (TandemBlock *self)
{
  g_return_val_if_fail (TANDEM_IS_BLOCK (self), FALSE);

  return self->collapsed;
}

void
tandem_block_set_collapsed (TandemBlock *self,
                            gboolean     collapsed)
{
  g_return_if_fail (TANDEM_IS_BLOCK (self));

  if (self->collapsed == !!collapsed)
    return;

  self->collapsed = !!collapsed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSED]);
}
