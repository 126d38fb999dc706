/* test-markdown-view.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "tandem-markdown-view.h"

typedef struct
{
  GtkWidget          *window;
  TandemMarkdownView *view;
} Fixture;

static void
run_briefly (void)
{
  for (guint i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

/* Layout happens on the frame clock, not when the main loop goes idle */
static void
wait_for_layout (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while ((gtk_widget_get_width (widget) == 0 || gtk_widget_should_layout (widget)) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);

  g_assert_cmpint (gtk_widget_get_width (widget), >, 0);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 600, 400);
  f->view = TANDEM_MARKDOWN_VIEW (tandem_markdown_view_new ());
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
  run_briefly ();
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  run_briefly ();
}

static void
set_text (Fixture    *f,
          const char *text)
{
  tandem_markdown_view_set_text (f->view, text);
  run_briefly ();
}

static guint
count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;

  return n;
}

static GtkWidget *
nth_child (GtkWidget *widget,
           guint      n)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);

  for (guint i = 0; i < n && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);

  g_assert_nonnull (child);

  return child;
}

/* Depth first, the first widget that is a @type and has @css_class */
static GtkWidget *
find_widget (GtkWidget  *widget,
             GType       type,
             const char *css_class)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) &&
      (css_class == NULL || gtk_widget_has_css_class (widget, css_class)))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
collect_texts_into (GtkWidget *widget,
                    GString   *out)
{
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (text[0] != '\0')
        {
          if (out->len > 0)
            g_string_append_c (out, '|');
          g_string_append (out, text);
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts_into (child, out);
}

/* The non-empty label texts, in order, joined by '|' */
static char *
collect_texts (GtkWidget *widget)
{
  GString *out = g_string_new (NULL);

  collect_texts_into (widget, out);

  return g_string_free (out, FALSE);
}

static void
dump_into (GtkWidget *widget,
           GString   *out,
           guint      depth)
{
  g_auto(GStrv) classes = NULL;

  if (GTK_IS_SCROLLBAR (widget))
    return;

  g_string_append_printf (out, "%*s%s", depth * 2, "", G_OBJECT_TYPE_NAME (widget));
  classes = gtk_widget_get_css_classes (widget);
  for (guint i = 0; classes[i] != NULL; i++)
    g_string_append_printf (out, " .%s", classes[i]);
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (out, " markup=%d \"%s\"",
                            gtk_label_get_use_markup (GTK_LABEL (widget)),
                            gtk_label_get_label (GTK_LABEL (widget)));
  g_string_append_c (out, '\n');

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    dump_into (child, out, depth + 1);
}

/* The whole widget tree: types, style classes and label contents */
static char *
dump (GtkWidget *widget)
{
  GString *out = g_string_new (NULL);

  dump_into (widget, out, 0);

  return g_string_free (out, FALSE);
}

static char *
dump_fresh (const char *text)
{
  GtkWidget *view = g_object_ref_sink (tandem_markdown_view_new ());
  char *result;

  tandem_markdown_view_set_text (TANDEM_MARKDOWN_VIEW (view), text);
  result = dump (view);
  g_object_unref (view);

  return result;
}

static guint
widget_depth (GtkWidget *widget)
{
  guint deepest = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      guint depth = widget_depth (child);

      deepest = MAX (deepest, depth);
    }

  return deepest + 1;
}

static void
test_paragraph_inline (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *label;
  const char *markup;

  g_test_summary ("Emphasis, strong, strikethrough and inline code become Pango markup");

  set_text (f, "Hello *em* **strong** ~~del~~ `co de`\nnext line");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 1);

  label = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_true (GTK_IS_LABEL (label));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (label)));
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (label)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "Hello em strong del co de\nnext line");

  markup = gtk_label_get_label (GTK_LABEL (label));
  g_assert_nonnull (strstr (markup, "<i>em</i>"));
  g_assert_nonnull (strstr (markup, "<b>strong</b>"));
  g_assert_nonnull (strstr (markup, "<s>del</s>"));
  g_assert_nonnull (strstr (markup, "<tt>co de</tt>"));
}

static void
test_headings (Fixture       *f,
               gconstpointer  data)
{
  static const char * const classes[] = {
    "title-1", "title-2", "title-3", "title-4", "heading", "heading", "title-1", "title-2",
  };
  static const char * const texts[] = {
    "One", "Two", "Three", "Four", "Five", "Six", "Setext one", "Setext two",
  };

  g_test_summary ("ATX and setext headings are labels styled by level");

  set_text (f, "# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six\n\n"
               "Setext one\n===\n\nSetext two\n---\n");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, G_N_ELEMENTS (texts));

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      GtkWidget *label = nth_child (GTK_WIDGET (f->view), i);

      g_assert_true (GTK_IS_LABEL (label));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, texts[i]);
      g_assert_true (gtk_widget_has_css_class (label, classes[i]));
      g_assert_true (gtk_label_get_selectable (GTK_LABEL (label)));
      g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (label)), ==,
                       GTK_ACCESSIBLE_ROLE_HEADING);
    }
}

static void
test_links (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *label;
  const char *markup;
  gboolean handled = FALSE;

  g_test_summary ("Web and mail links are clickable, with escaped targets; others are text");

  set_text (f, "[site](https://example.com/?a=1&b=2) [bad](javascript:alert(1)) "
               "[file](file:///etc/passwd) <https://x.org/> www.gnome.org "
               "me@example.com [![alt](https://e.com/i.png)](https://e.com/)");
  label = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_true (GTK_IS_LABEL (label));

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                   "site bad file https://x.org/ www.gnome.org me@example.com alt");

  markup = gtk_label_get_label (GTK_LABEL (label));
  g_assert_nonnull (strstr (markup, "<a href=\"https://example.com/?a=1&amp;b=2\">site</a>"));
  g_assert_nonnull (strstr (markup, "<a href=\"https://x.org/\">https://x.org/</a>"));
  g_assert_nonnull (strstr (markup, "<a href=\"http://www.gnome.org\">www.gnome.org</a>"));
  g_assert_nonnull (strstr (markup, "<a href=\"mailto:me@example.com\">"));
  g_assert_nonnull (strstr (markup, "<a href=\"https://e.com/\">alt</a>"));
  g_assert_null (strstr (markup, "javascript"));
  g_assert_null (strstr (markup, "file:"));

  /* md4c finds bare URLs inside link text too; links cannot nest */
  set_text (f, "[https://x.org and www.a.com](https://y.org)");
  label = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==,
                   "<a href=\"https://y.org\">https://x.org and www.a.com</a>");

  /* Even a link that got into the markup opens nothing but the web */
  g_signal_emit_by_name (label, "activate-link", "file:///etc/passwd", &handled);
  g_assert_true (handled);
}

static void
test_lists (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *texts = NULL;
  GtkWidget *list;
  GtkWidget *nested;

  g_test_summary ("Bullet, ordered and task lists nest, with markers");

  set_text (f, "- a\n- b\n  - c\n    1. deep\n\n3. x\n4. y\n\n* [ ] t\n* [x] u\n");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 3);

  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "•|a|•|b|◦|c|1.|deep|3.|x|4.|y|☐|t|☑|u");

  list = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_true (gtk_widget_has_css_class (list, "md-list"));
  g_assert_cmpuint (count_children (list), ==, 2);
  nested = find_widget (nth_child (list, 1), GTK_TYPE_BOX, "md-list");
  g_assert_nonnull (nested);
  g_assert_cmpuint (count_children (nested), ==, 1);
  g_assert_nonnull (find_widget (nested, GTK_TYPE_BOX, "md-list"));
}

static void
test_blockquote (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *texts = NULL;
  GtkWidget *quote;
  GtkWidget *inner;

  g_test_summary ("Block quotes are boxes styled with a left border, and nest");

  set_text (f, "> quote\n> more\n>\n> > nested\n\nafter");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 2);

  quote = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_true (GTK_IS_BOX (quote));
  g_assert_true (gtk_widget_has_css_class (quote, "md-blockquote"));
  g_assert_cmpuint (count_children (quote), ==, 2);
  inner = nth_child (quote, 1);
  g_assert_true (gtk_widget_has_css_class (inner, "md-blockquote"));

  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "quote\nmore|nested|after");
}

static void
test_table (Fixture       *f,
            gconstpointer  data)
{
  GtkWidget *grid;
  GtkWidget *cell;

  g_test_summary ("Tables are grids with a bold header row and column alignment");

  set_text (f, "| Name | Count |\n|------|:-----:|\n| *a* | 1 |\n| b | 22 |\n");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 1);

  grid = find_widget (GTK_WIDGET (f->view), GTK_TYPE_GRID, "md-table");
  g_assert_nonnull (grid);

  cell = gtk_grid_get_child_at (GTK_GRID (grid), 0, 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell)), ==, "Name");
  g_assert_true (gtk_widget_has_css_class (cell, "heading"));

  cell = gtk_grid_get_child_at (GTK_GRID (grid), 1, 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell)), ==, "Count");
  g_assert_cmpfloat (gtk_label_get_xalign (GTK_LABEL (cell)), ==, 0.5f);

  cell = gtk_grid_get_child_at (GTK_GRID (grid), 0, 1);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (cell)), ==, "<i>a</i>");
  g_assert_false (gtk_widget_has_css_class (cell, "heading"));

  cell = gtk_grid_get_child_at (GTK_GRID (grid), 1, 2);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (cell)), ==, "22");
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (cell)));
  g_assert_null (gtk_grid_get_child_at (GTK_GRID (grid), 0, 3));

  /* The frame ends where the last column does, not at the view's edge */
  wait_for_layout (grid);
  {
    GtkWidget *last = gtk_grid_get_child_at (GTK_GRID (grid), 1, 0);
    graphene_point_t end;

    g_assert_true (gtk_widget_compute_point (last, grid,
                                             &GRAPHENE_POINT_INIT (gtk_widget_get_width (last), 0),
                                             &end));
    g_assert_cmpint (gtk_widget_get_width (grid), <=, (int) end.x + 2);
    g_assert_cmpint (gtk_widget_get_width (grid), <, gtk_widget_get_width (GTK_WIDGET (f->view)) / 2);
  }
}

static void
test_rule (Fixture       *f,
           gconstpointer  data)
{
  g_test_summary ("Thematic breaks are separators");

  set_text (f, "a\n\n---\n\nb\n\n* * *");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 4);
  g_assert_true (GTK_IS_SEPARATOR (nth_child (GTK_WIDGET (f->view), 1)));
  g_assert_true (GTK_IS_SEPARATOR (nth_child (GTK_WIDGET (f->view), 3)));
}

static GtkWidget *
code_label (GtkWidget *block)
{
  return find_widget (block, GTK_TYPE_LABEL, "md-code");
}

static GtkWidget *
language_label (GtkWidget *block)
{
  return find_widget (block, GTK_TYPE_LABEL, "md-code-language");
}

static void
test_code_blocks (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *block;
  GtkWidget *label;
  GtkWidget *button;
  GtkWidget *scroller;
  g_autofree char *long_line = g_strnfill (500, 'x');
  g_autofree char *text = NULL;

  g_test_summary ("Fenced and indented code is plain monospace text with its language and a Copy button");

  text = g_strdup_printf ("```python\nprint('<b>&amp;')\n  indented\n```\n\n"
                          "~~~\nplain\n~~~\n\n"
                          "    indented code\n\n"
                          "```\n%s\n```", long_line);
  set_text (f, text);
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 4);

  block = nth_child (GTK_WIDGET (f->view), 0);
  g_assert_true (gtk_widget_has_css_class (block, "md-code-block"));
  label = code_label (block);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "print('<b>&amp;')\n  indented");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (label)));
  g_assert_false (gtk_label_get_wrap (GTK_LABEL (label)));
  g_assert_true (gtk_widget_has_css_class (label, "monospace"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (language_label (block))), ==, "Python");

  button = find_widget (block, GTK_TYPE_BUTTON, NULL);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (button)), ==, "edit-copy-symbolic");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Copy code");

  block = nth_child (GTK_WIDGET (f->view), 1);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (code_label (block))), ==, "plain");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (language_label (block))), ==, "");

  block = nth_child (GTK_WIDGET (f->view), 2);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (code_label (block))), ==, "indented code");

  /* Long lines scroll sideways */
  block = nth_child (GTK_WIDGET (f->view), 3);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (code_label (block))), ==, long_line);
  scroller = find_widget (block, GTK_TYPE_SCROLLED_WINDOW, NULL);
  g_assert_nonnull (scroller);
  g_assert_true (gtk_widget_is_ancestor (code_label (block), scroller));
  wait_for_layout (code_label (block));
  g_assert_cmpint (gtk_widget_get_width (scroller), <=, 600);
  g_assert_cmpint (gtk_widget_get_width (code_label (block)), >, gtk_widget_get_width (scroller));
}

/* The code block's own scroll controller, and that it is the only one
 * of @scroller's that sees the wheel */
static GtkEventController *
code_scroll_controller (GtkWidget *scroller)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (scroller);
  GtkEventController *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_EVENT_CONTROLLER_SCROLL (controller) ||
          gtk_event_controller_get_propagation_phase (controller) == GTK_PHASE_NONE)
        continue;
      g_assert_null (found);
      found = controller;
    }
  g_assert_nonnull (found);
  g_assert_cmpstr (gtk_event_controller_get_name (found), ==, "nested-scroll");

  return found;
}

static gboolean
scroll_code (GtkEventController *controller,
             double              dx,
             double              dy)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (controller, "scroll", dx, dy, &handled);

  return handled;
}

/* The person's wheel and Shift+wheel, through the X server, are in
 * test-conversation-view.c (wheel/over-code). A touchpad's smooth
 * scrolling cannot be made there (the X server's test pointer has no
 * scroll valuators), so its deltas go to the code block's handler
 * directly, as its scroll controller would report them. */
static void
test_code_scroll_sideways_only (Fixture       *f,
                                gconstpointer  data)
{
  g_autofree char *long_line = g_strnfill (500, 'x');
  g_autofree char *text = NULL;
  GtkWidget *scroller;
  GtkAdjustment *hadjustment;
  GtkEventController *controller;

  g_test_summary ("A code block scrolls sideways only, and leaves vertical scrolling to what it is in");

  text = g_strdup_printf ("```\nshort\n```\n\n```\n%s\n```", long_line);
  set_text (f, text);

  /* Code that fits: nothing for it to scroll */
  scroller = find_widget (nth_child (GTK_WIDGET (f->view), 0), GTK_TYPE_SCROLLED_WINDOW, NULL);
  wait_for_layout (scroller);
  controller = code_scroll_controller (scroller);
  g_assert_false (scroll_code (controller, 0, 1));
  g_assert_false (scroll_code (controller, 0, -1));
  g_assert_false (scroll_code (controller, 1, 0));

  /* Wider code: sideways moves it, vertical goes on */
  scroller = find_widget (nth_child (GTK_WIDGET (f->view), 1), GTK_TYPE_SCROLLED_WINDOW, NULL);
  wait_for_layout (scroller);
  hadjustment = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (hadjustment), >, gtk_adjustment_get_page_size (hadjustment));
  controller = code_scroll_controller (scroller);

  g_assert_false (scroll_code (controller, 0, 1));
  g_assert_false (scroll_code (controller, 0, -3));
  /* A swipe mostly down, a little sideways, is the reader's */
  g_assert_false (scroll_code (controller, 0.3, 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (hadjustment), ==, 0);

  /* Mostly sideways is the code's */
  g_assert_true (scroll_code (controller, 1, 0.2));
  g_assert_cmpfloat (gtk_adjustment_get_value (hadjustment), >, 0);
  g_assert_true (scroll_code (controller, -5, 0));
  g_assert_cmpfloat (gtk_adjustment_get_value (hadjustment), ==, 0);
  /* At its start, a turn further back goes on */
  g_assert_false (scroll_code (controller, -1, 0));
}

static void
on_read_text_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*text);
}

static void
test_copy_code (Fixture       *f,
                gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (f->view));
  g_autofree char *copied = NULL;
  GtkWidget *button;

  g_test_summary ("The Copy button puts the code on the clipboard and says so");

  gdk_clipboard_set_text (clipboard, "before");
  set_text (f, "Intro\n\n```sh\necho \"<hi>\" && ls\nsecond line\n```\n");

  button = find_widget (GTK_WIDGET (f->view), GTK_TYPE_BUTTON, "md-code-copy");
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, "code.copy");
  g_signal_emit_by_name (button, "clicked");

  gdk_clipboard_read_text_async (clipboard, NULL, on_read_text_cb, &copied);
  while (copied == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpstr (copied, ==, "echo \"<hi>\" && ls\nsecond line");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Copied");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (button)), ==, "object-select-symbolic");

  /* The view goes away while "Copied" is still showing */
}

typedef struct
{
  const char *markdown;
  const char *shown;
} InjectionCase;

static const InjectionCase injection_cases[] = {
  { "<b>bold</b>", "<b>bold</b>" },
  { "a & b && c", "a & b && c" },
  { "AT&T", "AT&T" },
  { "<span foreground=\"red\">x</span>", "<span foreground=\"red\">x</span>" },
  { "<i>unclosed", "<i>unclosed" },
  { "</b></i></span>", "</b></i></span>" },
  { "x <a href=\"file:///etc/passwd\">y</a>", "x <a href=\"file:///etc/passwd\">y</a>" },
  { "<![CDATA[ x ]]> <!-- c --> <?pi?>", "<![CDATA[ x ]]> <!-- c --> <?pi?>" },
  { "`<b>`", "<b>" },
  { "*<i>* **&lt;b&gt;**", "<i> <b>" },
  { "[<b>x</b>](https://e.com/\"><b>)", "<b>x</b>" },
  { "&#0; &#xD800; &#1114112; &#65;", "\xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd A" },
  { "&bogus; &amp", "&bogus; &amp" },
  { "ctrl \x01\x02\x1b[31m \x7f end", "ctrl \x01\x02\x1b[31m \x7f end" },
  { "&#1; &#x1b;", "\x01 \x1b" },
  { "nonchar \xef\xbf\xbf", "nonchar \xef\xbf\xbf" },
  { "# <u>head</u>", "<u>head</u>" },
  { "- <s>item", "•|<s>item" },
  { "| <b> | & |\n|---|---|\n| </a> | \" |", "<b>|&|</a>|\"" },
};

static void
test_markup_injection (Fixture       *f,
                       gconstpointer  data)
{
  g_test_summary ("Text that looks like markup is shown as typed, never as formatting");

  for (guint i = 0; i < G_N_ELEMENTS (injection_cases); i++)
    {
      g_autofree char *texts = NULL;

      g_test_message ("case %u: %s", i, injection_cases[i].markdown);
      set_text (f, injection_cases[i].markdown);
      texts = collect_texts (GTK_WIDGET (f->view));
      g_assert_cmpstr (texts, ==, injection_cases[i].shown);
    }
}

static void
test_raw_html (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *texts = NULL;
  GtkWidget *label;

  g_test_summary ("Raw HTML blocks and inline HTML are shown literally");

  set_text (f, "<div>\n<script>alert(1)</script>\n</div>\n\ntext <em>not em</em>");
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "<div>\n<script>alert(1)</script>\n</div>|text <em>not em</em>");

  label = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (label)), "&lt;script&gt;"));
}

/* Each is streamed a character at a time; after every character the view
 * must look exactly like a new view given the same text at once. */
static const char * const streamed_documents[] = {
  /* A paragraph, then a code block, then a list */
  "Here is a paragraph that streams word by word.\n\n"
  "```python\ndef f(x):\n    return x < 1 and \"<b>\"\n```\n\n"
  "- one\n- two\n  - nested\n- three\n",

  /* Setext headings, lazy continuation, fences in containers */
  "Title\n=====\n\nSub\n---\n\n"
  "> quote line\nlazy continuation\n\n"
  "> ```\n> fenced in quote\n> ```\n\n"
  "- item\n\n  continued item\n- ```\n  code in item\n  ```\n-\n  empty first line\n\n"
  "1) one\n2) two\n\n"
  "| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\n"
  "***\n\n**bold** start and `code`\n\n    indented code\n\n"
  "~~~\ntilde fence\n~~~\n\n- [ ] task\n- [x] done\n\n"
  "\\# not a heading\n&amp; entity start\n",

  /* A reference definition below its use */
  "See [the docs][d] now.\n\n[d]: https://example.com\n\nMore [d] text.",

  /* Blocks with no text, empty fences, blank lines in code */
  "para\n***\n---\nfoo\n---\n```\n```\n\n```\n\n\ncode after blank\n```\ntext\n#\n# \n- \n- x",

  /* Multi-byte characters */
  "héllo wörld — ✓ 🎉 **fé**\n\n> ça\n\n- ü\n",

  /* CRLF line ends */
  "line one\r\nline two\r\n\r\n```\r\ncode\r\n```\r\n- a\r\n- b\r\n\r\n> q\r\n",

  /* HTML-looking text */
  "<div>\n<b>hi</b>\n</div>\n\ntext <i>unclosed &amp; more\n",

  /* Top-level blocks whose first line has no text */
  "-\n  empty first line\n- second\n\n"
  "1.\n   empty ordered\n\n"
  "-\n- first item empty\n\n"
  "-\n  - nested after empty\n\n"
  "> \n> quote after empty line\n\n"
  "- ```\n  fence in item\n  ```\n\n"
  "* ***\n* after rule\n\n"
  "- ![](x.png)\n  text after image\n\n"
  "> ```js\n> x\n> ```\n",

  /* Lists turning into other things and back */
  "1986. A great year\n\n* a\n*\n* b\n\n- a\n - b\n  - c\n   - d\n\n+ x\n\n  y\n+ z\n",
};

static void
test_streaming_matches_full (Fixture       *f,
                             gconstpointer  data)
{
  g_test_summary ("Streaming character by character shows what setting the text at once shows");

  for (guint i = 0; i < G_N_ELEMENTS (streamed_documents); i++)
    {
      const char *document = streamed_documents[i];
      guint n_blocks;

      set_text (f, "");
      g_test_message ("document %u", i);

      for (const char *end = document; ; end = g_utf8_next_char (end))
        {
          g_autofree char *prefix = g_strndup (document, end - document);
          g_autofree char *streamed = NULL;
          g_autofree char *fresh = NULL;

          tandem_markdown_view_set_text (f->view, prefix);
          streamed = dump (GTK_WIDGET (f->view));
          fresh = dump_fresh (prefix);

          if (g_strcmp0 (streamed, fresh) != 0)
            g_test_message ("after %" G_GSIZE_FORMAT " bytes: %s", (gsize) (end - document), prefix);
          g_assert_cmpstr (streamed, ==, fresh);

          if (*end == '\0')
            break;
        }

      run_briefly ();
      n_blocks = count_children (GTK_WIDGET (f->view));
      g_test_message ("%u blocks, %u built", n_blocks,
                      tandem_markdown_view_get_blocks_built (f->view));
    }
}

static void
test_streaming_words (Fixture       *f,
                      gconstpointer  data)
{
  const char *document = streamed_documents[0];
  g_auto(GStrv) words = g_strsplit (document, " ", -1);
  g_autoptr(GString) so_far = g_string_new (NULL);
  g_autofree char *streamed = NULL;
  g_autofree char *fresh = NULL;
  g_autofree char *texts = NULL;

  g_test_summary ("A paragraph, a code block and a list streamed word by word end as if set at once");

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (so_far, ' ');
      g_string_append (so_far, words[i]);
      set_text (f, so_far->str);
    }

  g_assert_cmpstr (tandem_markdown_view_get_text (f->view), ==, document);
  streamed = dump (GTK_WIDGET (f->view));
  fresh = dump_fresh (document);
  g_assert_cmpstr (streamed, ==, fresh);

  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==,
                   "Here is a paragraph that streams word by word.|Python|"
                   "def f(x):\n    return x < 1 and \"<b>\"|•|one|•|two|◦|nested|•|three");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 3);
}

static void
test_streaming_cost (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *first_label;
  GtkWidget *code_block;
  guint n_deltas = 0;

  g_test_summary ("Blocks are built once per block, not once per delta");

  for (guint paragraph = 0; paragraph < 3; paragraph++)
    {
      if (paragraph > 0)
        g_string_append (text, "\n\n");
      for (guint word = 0; word < 50; word++)
        {
          g_string_append_printf (text, "%sword%u", word > 0 ? " " : "", word);
          tandem_markdown_view_set_text (f->view, text->str);
          n_deltas++;
        }
    }

  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 3);
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), <=, n_deltas + 3);
  /* Growing blocks are updated in place */
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 3);

  first_label = gtk_widget_get_first_child (GTK_WIDGET (f->view));
  g_string_append (text, "\n\n```c\n");
  tandem_markdown_view_set_text (f->view, text->str);
  code_block = gtk_widget_get_last_child (GTK_WIDGET (f->view));
  for (guint line = 0; line < 50; line++)
    {
      g_string_append_printf (text, "int x%u = %u;\n", line, line);
      tandem_markdown_view_set_text (f->view, text->str);
    }
  g_assert_true (gtk_widget_get_first_child (GTK_WIDGET (f->view)) == first_label);
  g_assert_true (gtk_widget_get_last_child (GTK_WIDGET (f->view)) == code_block);
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 4);

  /* A list growing item by item keeps its widget too */
  g_string_append (text, "```\n\n");
  for (guint item = 0; item < 50; item++)
    {
      g_string_append_printf (text, "- item %u\n", item);
      tandem_markdown_view_set_text (f->view, text->str);
    }
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 5);
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 5);
}

static void
test_streaming_many_deltas (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 begin = g_get_monotonic_time ();
  guint n_blocks = 100;

  g_test_summary ("Ten thousand deltas into one message build each block once");

  for (guint block = 0; block < n_blocks; block++)
    {
      if (block > 0)
        g_string_append (text, "\n\n");
      for (guint word = 0; word < 100; word++)
        {
          g_string_append_printf (text, "%s%s", word > 0 ? " " : "", word % 7 == 0 ? "**w**" : "w");
          tandem_markdown_view_set_text (f->view, text->str);
        }
    }

  g_test_message ("10000 deltas, %" G_GSIZE_FORMAT " bytes: %.2f s",
                  text->len, (g_get_monotonic_time () - begin) / (double) G_USEC_PER_SEC);
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, n_blocks);
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, n_blocks);
}

static void
test_non_prefix_rebuilds (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *texts = NULL;
  g_autofree char *heading_texts = NULL;
  GtkWidget *first;

  g_test_summary ("A change that is not an append parses the text anew; a widget of the "
                  "old text takes a new block of its shape, any other is made anew");

  set_text (f, "one\n\ntwo");
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 2);
  first = gtk_widget_get_first_child (GTK_WIDGET (f->view));

  set_text (f, "one\n\ntwo three");
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 2);
  g_assert_true (gtk_widget_get_first_child (GTK_WIDGET (f->view)) == first);

  /* Another text of the same shape (a row given another block to draw):
   * the same two labels, saying the new words */
  set_text (f, "uno\n\ntwo three");
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 2);
  g_assert_true (gtk_widget_get_first_child (GTK_WIDGET (f->view)) == first);
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "uno|two three");

  /* Shorter is not an append either */
  set_text (f, "uno");
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 2);
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 1);
  g_assert_true (gtk_widget_get_first_child (GTK_WIDGET (f->view)) == first);

  /* A heading where a paragraph was is a widget of its own */
  set_text (f, "# Uno\n\ndos");
  g_assert_cmpuint (tandem_markdown_view_get_blocks_built (f->view), ==, 4);
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 2);
  g_assert_false (gtk_widget_get_first_child (GTK_WIDGET (f->view)) == first);
  heading_texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (heading_texts, ==, "Uno|dos");

  set_text (f, NULL);
  g_assert_cmpstr (tandem_markdown_view_get_text (f->view), ==, "");
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 0);
}

static void
test_deep_nesting (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *quote_texts = NULL;
  g_autofree char *list_texts = NULL;

  g_test_summary ("Thousands of nested quotes and lists stay a shallow widget tree");

  for (guint i = 0; i < 5000; i++)
    g_string_append_c (text, '>');
  g_string_append (text, " deep\n\n");
  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "%*s- level\n", i * 2, "");

  set_text (f, text->str);
  g_assert_cmpuint (count_children (GTK_WIDGET (f->view)), ==, 2);
  g_assert_cmpuint (widget_depth (GTK_WIDGET (f->view)), <, 100);

  quote_texts = collect_texts (nth_child (GTK_WIDGET (f->view), 0));
  g_assert_cmpstr (quote_texts, ==, "deep");
  list_texts = collect_texts (nth_child (GTK_WIDGET (f->view), 1));
  g_assert_cmpuint (strlen (list_texts), >, 300 * strlen ("level"));
}

/* How deep the tags of a label's markup nest */
static guint
markup_depth (const char *markup)
{
  guint depth = 0;
  guint deepest = 0;

  for (const char *p = markup; *p != '\0'; p++)
    {
      if (*p != '<')
        continue;
      if (p[1] == '/')
        {
          depth--;
        }
      else
        {
          depth++;
          deepest = MAX (deepest, depth);
        }
    }

  return deepest;
}

static void
test_hostile_nesting (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GString) quotes = g_string_new (NULL);
  g_autoptr(GString) items = g_string_new (NULL);
  g_autoptr(GString) emphasis = g_string_new (NULL);
  g_autoptr(GString) streamed = g_string_new (NULL);
  g_autofree char *texts = NULL;
  GtkWidget *label;

  g_test_summary ("100,000 nested quotes, list items or emphases, set at once or streamed, stay shallow widgets and markup");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (quotes, '>');
  g_string_append (quotes, " deep");
  set_text (f, quotes->str);
  g_assert_cmpuint (widget_depth (GTK_WIDGET (f->view)), <, 100);
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "deep");
  g_clear_pointer (&texts, g_free);

  for (guint i = 0; i < 100000; i++)
    g_string_append (items, "- ");
  g_string_append (items, "x");
  set_text (f, items->str);
  g_assert_cmpuint (widget_depth (GTK_WIDGET (f->view)), <, 100);
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_true (g_str_has_suffix (texts, "|x"));
  g_clear_pointer (&texts, g_free);

  /* 100,000 stars each side: 50,000 strong emphases around one letter */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (emphasis, '*');
  g_string_append (emphasis, "x");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (emphasis, '*');
  set_text (f, emphasis->str);
  label = find_widget (GTK_WIDGET (f->view), GTK_TYPE_LABEL, "md-paragraph");
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "x");
  g_assert_cmpuint (markup_depth (gtk_label_get_label (GTK_LABEL (label))), ==, 32);

  /* Streamed in 4 KB deltas, each re-parsing only the growing block */
  set_text (f, "");
  for (gsize at = 0; at < quotes->len; at += 4096)
    {
      g_string_append_len (streamed, quotes->str + at, MIN (4096, quotes->len - at));
      tandem_markdown_view_set_text (f->view, streamed->str);
    }
  g_assert_cmpuint (widget_depth (GTK_WIDGET (f->view)), <, 100);
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "deep");
}

static void
test_invalid_utf8 (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *texts = NULL;

  g_test_summary ("Invalid UTF-8 is shown with replacement characters");

  set_text (f, "ok \xff\xfe *bad* \xc3");
  g_assert_true (g_utf8_validate (tandem_markdown_view_get_text (f->view), -1, NULL));
  texts = collect_texts (GTK_WIDGET (f->view));
  g_assert_cmpstr (texts, ==, "ok \xef\xbf\xbd\xef\xbf\xbd bad \xef\xbf\xbd");

  /* An append whose new part is invalid */
  set_text (f, "ok \xff\xfe *bad* \xc3 and \xe2\x82");
  g_assert_true (g_utf8_validate (tandem_markdown_view_get_text (f->view), -1, NULL));
}

static void
on_parsing_error_cb (GtkCssProvider *provider,
                     GtkCssSection  *section,
                     const GError   *error,
                     gpointer        user_data)
{
  guint *n_errors = user_data;

  g_test_message ("style.css: %s", error->message);
  (*n_errors)++;
}

static void
test_style_sheet (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *section = NULL;
  const char *css;
  const char *begin;
  const char *end;
  guint n_errors = 0;

  g_test_summary ("The Markdown rules in style.css parse");

  bytes = g_resources_lookup_data ("/io/github/tandemdesk/Tandem/style.css", 0, NULL);
  g_assert_nonnull (bytes);
  css = g_bytes_get_data (bytes, NULL);
  begin = g_strstr_len (css, g_bytes_get_size (bytes), "/* Markdown */");
  g_assert_nonnull (begin);
  end = strstr (begin, "/* End Markdown */");
  g_assert_nonnull (end);
  section = g_strndup (begin, end - begin);

  g_signal_connect (provider, "parsing-error", G_CALLBACK (on_parsing_error_cb), &n_errors);
  gtk_css_provider_load_from_data (provider, section, -1);
  g_assert_cmpuint (n_errors, ==, 0);
}

/* Inputs the fuzzer found that crashed the view or made streaming show
 * something else than the finished text. */
static const char * const hostile_documents[] = {
  "![]([)]()",
  "x ![]([)]() y\n\n[![]([)]()](https://example.com)",
  "![[a](b)](c) ![x[](y)](z) [![](i)](l) ![![](a)](b)",
  "[a![](x)b]()",
  /* A code span opened at the end of a line: its text starts a line
   * below, which is not where its paragraph starts */
  "- \n``\n! +ode in item\n  ```\n-\n  empty first line\n",
  "a\n\n``\ncode span\n``\n\nb",
  /* A fence whose info string gets a backtick becomes a lazy line of the
   * item above */
  "- a\n ```x``y\nz\n",
  /* md4c reads an indented line after a quoted fence as a paragraph,
   * and alone as code */
  "> ```\n> x\n                        y\nz\n",
  /* A quote holding an open fence changes how md4c ends a list
   * blocks later */
  "> ```\n\"\n- ietm\n\n  \n   ```\n-```\n3)\x01```\n2) /__",
  /* A link whose text starts on the next line */
  "a\n\n[\nfoo](https://example.com) more\n\nb",
};

static void
test_hostile (Fixture       *f,
              gconstpointer  data)
{
  g_test_summary ("Fuzzer-found inputs neither crash nor render differently when streamed");

  for (guint i = 0; i < G_N_ELEMENTS (hostile_documents); i++)
    {
      const char *document = hostile_documents[i];

      set_text (f, "");
      for (const char *end = document; ; end = g_utf8_next_char (end))
        {
          g_autofree char *prefix = g_strndup (document, end - document);
          g_autofree char *streamed = NULL;
          g_autofree char *fresh = NULL;

          tandem_markdown_view_set_text (f->view, prefix);
          streamed = dump (GTK_WIDGET (f->view));
          fresh = dump_fresh (prefix);
          g_assert_cmpstr (streamed, ==, fresh);

          if (*end == '\0')
            break;
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  /* Markup GtkLabel cannot parse is only a warning; make it fail the test
   * (gtk_test_init() leaves GTK's warnings non-fatal here). */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);

#define ADD(path, function) \
  g_test_add (path, Fixture, NULL, fixture_set_up, function, fixture_tear_down)

  ADD ("/markdown-view/paragraph-inline", test_paragraph_inline);
  ADD ("/markdown-view/headings", test_headings);
  ADD ("/markdown-view/links", test_links);
  ADD ("/markdown-view/lists", test_lists);
  ADD ("/markdown-view/blockquote", test_blockquote);
  ADD ("/markdown-view/table", test_table);
  ADD ("/markdown-view/rule", test_rule);
  ADD ("/markdown-view/code-blocks", test_code_blocks);
  ADD ("/markdown-view/copy-code", test_copy_code);
  ADD ("/markdown-view/code-scroll", test_code_scroll_sideways_only);
  ADD ("/markdown-view/markup-injection", test_markup_injection);
  ADD ("/markdown-view/raw-html", test_raw_html);
  ADD ("/markdown-view/streaming/matches-full", test_streaming_matches_full);
  ADD ("/markdown-view/streaming/words", test_streaming_words);
  ADD ("/markdown-view/streaming/cost", test_streaming_cost);
  ADD ("/markdown-view/streaming/many-deltas", test_streaming_many_deltas);
  ADD ("/markdown-view/non-prefix-rebuilds", test_non_prefix_rebuilds);
  ADD ("/markdown-view/deep-nesting", test_deep_nesting);
  ADD ("/markdown-view/hostile-nesting", test_hostile_nesting);
  ADD ("/markdown-view/invalid-utf8", test_invalid_utf8);
  ADD ("/markdown-view/hostile", test_hostile);
  g_test_add_func ("/markdown-view/style-sheet", test_style_sheet);

#undef ADD

  return g_test_run ();
}
