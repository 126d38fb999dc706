/* test-compat-differential.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui-event-compat-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

/* Temporary: the compat translation moves from the JsonObject to the
 * compact tree. This runs the JsonObject code as it was (compat-old.inc)
 * and the library's code on every object of every fixture and fuzz
 * corpus, and on hand-written deprecated forms, under every event name
 * the translation knows, and compares the warnings and the results (with
 * their number kinds). It goes once the old code goes. */

#include "compat-old.inc"

static const char *const names[] = {
  "THINKING_START", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END", "THINKING_END", "RUN_FINISHED", "SUBAGENT_FINISHED",
  "TOOL_CALL_START", "TOOL_CALL_CHUNK", "MESSAGES_SNAPSHOT", "RUN_STARTED",
  "TEXT_MESSAGE_END", "REASONING_START", "CUSTOM",
};

/* Ids are minted with g_uuid_string_random (), which draws on
 * g_random_int (): every side is run from the same seed. */
typedef struct
{
  AguiThinkingIds old_ids;
  AguiThinkingIds new_ids;
  AguiThinkingIds tree_ids;
  guint32 seed;
} Streams;

static guint n_cases;
static guint n_changed;
static guint n_compat_changed;

/* JSON with the kind of every number, so that 1 and 1.0 differ. */
static void
dump (GString  *out,
      JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            g_autofree char *escaped = g_strescape (name, NULL);

            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            g_string_append_printf (out, "\"%s\":", escaped);
            dump (out, member);
          }
        g_string_append_c (out, '}');
      }
      return;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        g_string_append_c (out, '[');
        for (guint i = 0; i < json_array_get_length (array); i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            dump (out, json_array_get_element (array, i));
          }
        g_string_append_c (out, ']');
      }
      return;

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      return;

    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      {
        g_autofree char *escaped = g_strescape (json_node_get_string (node), NULL);

        g_string_append_printf (out, "s\"%s\"", escaped);
      }
      break;
    case G_TYPE_INT64:
      g_string_append_printf (out, "i%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      g_string_append_printf (out, "d%.17g", json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    default:
      g_assert_not_reached ();
    }
}

static char *
dump_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_alloc ();
  GString *out = g_string_new (NULL);

  json_node_init_object (node, object);
  dump (out, node);

  return g_string_free (out, FALSE);
}

static void
assert_same_warnings (GPtrArray  *expected,
                      GPtrArray  *actual,
                      const char *side)
{
  for (guint i = 0; i < MAX (expected->len, actual->len); i++)
    {
      const char *e = i < expected->len ? g_ptr_array_index (expected, i) : NULL;
      const char *a = i < actual->len ? g_ptr_array_index (actual, i) : NULL;

      if (g_strcmp0 (e, a) != 0)
        g_error ("%s: warning %u differs: old '%s', new '%s'", side, i, e, a);
    }
}

static void
run_case (Streams    *streams,
          JsonObject *input,
          const char *name)
{
  g_autoptr(JsonNode) input_node = json_node_alloc ();
  g_autoptr(JsonNode) old_node = NULL;
  g_autoptr(JsonNode) new_node = NULL;
  g_autoptr(GPtrArray) old_warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) new_warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *before = NULL;
  g_autofree char *old_dump = NULL;
  g_autofree char *new_dump = NULL;
  const char *old_name;
  const char *new_name;
  guint32 seed;

  json_node_init_object (input_node, input);
  before = dump_object (input);
  old_node = _agui_json_node_copy_deep (input_node);
  new_node = _agui_json_node_copy_deep (input_node);

  g_random_set_seed (streams->seed);
  old_name = old_translate_thinking (&streams->old_ids, json_node_get_object (old_node), name, old_warnings);
  old_translate_compat (old_name ? old_name : name, json_node_get_object (old_node), old_warnings);

  g_random_set_seed (streams->seed);
  new_name = _agui_event_translate_thinking (&streams->new_ids, json_node_get_object (new_node), name, new_warnings);
  _agui_event_translate_compat (new_name ? new_name : name, json_node_get_object (new_node), new_warnings);

  seed = streams->seed++;
  n_cases++;

  old_dump = dump_object (json_node_get_object (old_node));
  new_dump = dump_object (json_node_get_object (new_node));
  if (strcmp (old_dump, before) != 0)
    {
      n_changed++;
      if (old_name == NULL)
        n_compat_changed++;
    }

  g_assert_cmpstr (old_name, ==, new_name);
  assert_same_warnings (old_warnings, new_warnings, name);
  if (strcmp (old_dump, new_dump) != 0)
    g_error ("%s on %s:\n old %s\n new %s", name, before, old_dump, new_dump);
  g_assert_cmpstr (streams->old_ids.span_id, ==, streams->new_ids.span_id);
  g_assert_cmpstr (streams->old_ids.message_id, ==, streams->new_ids.message_id);

  /* The tree, straight: what the parser will call once it reads events
   * into the tree. */
  g_random_set_seed (seed);
  {
    g_auto(AguiJsonValue) tree = AGUI_JSON_VALUE_INIT;
    g_autoptr(GPtrArray) tree_warnings = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(JsonNode) tree_node = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *tree_dump = NULL;
    g_autofree char *tree_printed = NULL;
    g_autofree char *old_printed = NULL;
    const char *tree_name;

    g_autoptr(GError) tree_error = NULL;
    const char *tree_type;

    _agui_json_value_set_node (&tree, input_node);
    /* The parser may pass the event's own "type" string, which a removal
     * before it moves. */
    tree_type = _agui_json_doc_get_string (&tree, "type");
    if (g_strcmp0 (tree_type, name) == 0)
      name = tree_type;
    tree_name = _agui_event_translate_thinking_tree (&streams->tree_ids, tree.u.object, name, tree_warnings);
    _agui_event_translate_compat_tree (tree_name ? tree_name : name, tree.u.object, tree_warnings);

    g_assert_cmpstr (old_name, ==, tree_name);
    assert_same_warnings (old_warnings, tree_warnings, "tree");
    tree_node = _agui_json_value_to_node (&tree);
    tree_dump = dump_object (json_node_get_object (tree_node));
    if (strcmp (old_dump, tree_dump) != 0)
      g_error ("tree: %s on %s:\n old %s\n new %s", name, before, old_dump, tree_dump);

    /* And printed as the parser prints events. */
    old_printed = _agui_json_to_string (old_node, FALSE, &error);
    tree_printed = _agui_json_value_to_string (&tree, FALSE, &tree_error);
    g_assert_cmpstr (old_printed, ==, tree_printed);
    g_assert_cmpstr (error ? error->message : NULL, ==, tree_error ? tree_error->message : NULL);
    g_assert_cmpstr (streams->old_ids.span_id, ==, streams->tree_ids.span_id);
    g_assert_cmpstr (streams->old_ids.message_id, ==, streams->tree_ids.message_id);
  }

  /* The input itself is left alone. */
  {
    g_autofree char *after = dump_object (input);

    g_assert_cmpstr (after, ==, before);
  }
}

/* Every object in @node, depth first: under its own type, then under each
 * name the translation knows. */
static void
run_all (Streams  *streams,
         JsonNode *node)
{
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        run_all (streams, json_array_get_element (array, i));
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      const char *type = _agui_json_object_get_string (object, "type");
      JsonObjectIter iter;
      const char *member_name;
      JsonNode *member;

      if (type != NULL && type[0] != '\0')
        run_case (streams, object, type);
      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        run_case (streams, object, names[i]);

      json_object_iter_init_ordered (&iter, object);
      while (json_object_iter_next_ordered (&iter, &member_name, &member))
        run_all (streams, member);
    }
}

static void
streams_clear (Streams *streams)
{
  _agui_thinking_ids_clear (&streams->old_ids);
  _agui_thinking_ids_clear (&streams->new_ids);
  _agui_thinking_ids_clear (&streams->tree_ids);
}

static void
run_text (GHashTable *seen,
          Streams    *streams,
          const char *text)
{
  g_autoptr(JsonParser) parser = NULL;

  if (!g_hash_table_add (seen, g_strdup (text)))
    return;

  parser = json_parser_new ();
  if (json_parser_load_from_data (parser, text, -1, NULL) && json_parser_get_root (parser) != NULL)
    run_all (streams, json_parser_get_root (parser));
}

/* A file is read whole, line by line, and as SSE data lines. */
static void
run_file (const char *path)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Streams streams = { .seed = 1 };
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  if (strlen (contents) != length || !g_utf8_validate (contents, -1, NULL))
    return;

  run_text (seen, &streams, contents);
  lines = g_strsplit_set (contents, "\r\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      run_text (seen, &streams, line);
      if (g_str_has_prefix (line, "data:"))
        run_text (seen, &streams, line + strlen ("data:") + (line[5] == ' '));
    }

  streams_clear (&streams);
}

static void
run_tree (const char *dir_path,
          guint      *n_files)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  if (dir == NULL)
    return;

  while ((entry = g_dir_read_name (dir)))
    g_ptr_array_add (entries, g_build_filename (dir_path, entry, NULL));
  g_ptr_array_sort (entries, (GCompareFunc) g_strcmp0);

  for (guint i = 0; i < entries->len; i++)
    {
      const char *path = g_ptr_array_index (entries, i);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        run_tree (path, n_files);
      else
        {
          run_file (path);
          (*n_files)++;
        }
    }
}

static void
test_corpora (void)
{
  const char *const dirs[][3] = {
    { "fixtures", NULL },
    { "..", "..", "shared" },
    { "fuzz", "corpus", NULL },
  };
  guint n_files = 0;

  g_test_summary ("The old and the new translation agree on every fixture and fuzz corpus");

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, dirs[i][0], dirs[i][1], dirs[i][2], NULL);

      if (i == 1)
        {
          g_autofree char *fixtures = g_build_filename (path, "fixtures", NULL);

          if (!g_file_test (fixtures, G_FILE_TEST_IS_DIR))
            continue;
          g_clear_pointer (&path, g_free);
          path = g_steal_pointer (&fixtures);
        }
      run_tree (path, &n_files);
    }

  g_test_message ("%u files, %u cases, %u changed by the translation, %u of them not THINKING_*",
                  n_files, n_cases, n_changed, n_compat_changed);
  g_assert_cmpuint (n_files, >, 100);
  g_assert_cmpuint (n_compat_changed, >, 100);
}

/* Each deprecated form, and its near misses. */
static const char *const hand_written[] = {
  /* THINKING_*: with and without title, a title of another kind, a
   * messageId or role already there, nothing open. */
  "{\"type\":\"THINKING_START\",\"title\":\"Planning\",\"timestamp\":3}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_START\"}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"step\"}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_END\"}",
  "{\"type\":\"THINKING_END\"}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"delta\":\"stray\"}",
  "{\"type\":\"THINKING_END\"}",
  "{\"type\":\"THINKING_START\"}",
  "{\"type\":\"THINKING_START\",\"title\":null}",
  "{\"type\":\"THINKING_START\",\"title\":{\"a\":1}}",
  "{\"type\":\"THINKING_START\",\"title\":7,\"messageId\":\"given\"}",
  "{\"title\":\"t\",\"type\":\"THINKING_START\",\"rawEvent\":null}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_START\",\"role\":\"assistant\",\"messageId\":\"m\",\"x\":1.0}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":null}",
  "{\"delta\":\"d\",\"type\":\"THINKING_TEXT_MESSAGE_CONTENT\",\"messageId\":null}",
  "{\"type\":\"THINKING_TEXT_MESSAGE_END\",\"rawEvent\":null}",
  "{\"type\":\"THINKING_END\",\"rawEvent\":{\"x\":null}}",
  "{\"type\":\"THINKING_SOMETHING\"}",
  /* Nulls at the top */
  "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\",\"rawEvent\":null}",
  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"result\":null,\"outcome\":null}",
  "{\"type\":\"RUN_FINISHED\",\"result\":0,\"outcome\":\"success\",\"rawEvent\":false}",
  "{\"type\":\"SUBAGENT_FINISHED\",\"subagentRunId\":\"s\",\"result\":null,\"outcome\":null}",
  "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"tc\",\"toolCallName\":\"n\",\"parentMessageId\":null}",
  "{\"type\":\"TOOL_CALL_CHUNK\",\"parentMessageId\":null,\"rawEvent\":null}",
  "{\"type\":\"TOOL_CALL_END\",\"parentMessageId\":null}",
  /* A large object: removals leave holes the tree may keep. */
  "{\"type\":\"RUN_FINISHED\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,"
  "\"result\":null,\"j\":1.5,\"outcome\":null,\"rawEvent\":null,\"k\":[null]}",
  /* RUN_STARTED input */
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"state\":null,"
  "\"forwardedProps\":null,\"tools\":[{\"name\":\"n\",\"description\":\"d\",\"parameters\":null},null,3,"
  "{\"parameters\":{}},{\"parameters\":null,\"x\":null}],"
  "\"resume\":[{\"interruptId\":\"i\",\"status\":\"cancelled\",\"payload\":null},[null]],"
  "\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"metadata\":null},"
  "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":null}]}]}}",
  "{\"type\":\"RUN_STARTED\",\"input\":null}",
  "{\"type\":\"RUN_STARTED\",\"input\":[{\"state\":null}]}",
  "{\"type\":\"RUN_STARTED\",\"input\":{\"tools\":{\"0\":{\"parameters\":null}},\"messages\":{\"content\":[]},\"resume\":null}}",
  /* Binary parts: data, url, both, neither, kinds, filename, duplicates
   * before and after, two alike, a modern part whose null metadata goes
   * first, mistyped members. */
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
  "{\"type\":\"text\",\"text\":\"see\"},"
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\",\"filename\":\"a.png\"},"
  "{\"type\":\"binary\",\"mimeType\":\"application/pdf\",\"url\":\"https://example.invalid/d.pdf\"},"
  "{\"type\":\"binary\",\"mimeType\":\"audio/ogg\",\"url\":\"https://example.invalid/a.ogg\"},"
  "{\"type\":\"binary\",\"mimeType\":\"video/webm\",\"data\":\"AAAA\"},"
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"id\":\"file-1\"}]}]}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
  "{\"type\":\"binary\",\"data\":\"D\",\"url\":\"U\"},{\"type\":\"binary\",\"url\":\"U\"},"
  "{\"type\":\"binary\",\"data\":5,\"url\":\"U\",\"filename\":7},{\"type\":\"binary\",\"data\":null},"
  "{\"type\":\"binary\",\"mimeType\":4,\"data\":\"x\"},{\"type\":\"binary\",\"mimeType\":\"text/plain\",\"data\":\"x\",\"filename\":\"f\"}]}]}",
  "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":["
  "{\"id\":\"u\",\"role\":\"user\",\"content\":["
  "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"iVBO\",\"mimeType\":\"image/png\"}},"
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"}]}]}}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\",\"content\":["
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"},"
  "{\"source\":{\"mimeType\":\"image/png\",\"value\":\"iVBO\",\"type\":\"data\"},\"type\":\"image\"}]}]}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"},"
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"},"
  "{\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBO\"}]}]}",
  /* The null metadata of the modern part goes before the comparison when
   * it comes first, not when it comes after. */
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
  "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"v\",\"mimeType\":\"image/gif\"},\"metadata\":null},"
  "{\"type\":\"binary\",\"mimeType\":\"image/gif\",\"data\":\"v\"},"
  "{\"type\":\"binary\",\"mimeType\":\"image/jpeg\",\"data\":\"w\"},"
  "{\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"w\",\"mimeType\":\"image/jpeg\"},\"metadata\":null}]}]}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":["
  "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"u\"},\"metadata\":{\"filename\":\"f\"}},"
  "{\"type\":\"binary\",\"url\":\"u\",\"filename\":\"f\"},"
  "{\"type\":\"document\",\"source\":{\"type\":\"url\",\"value\":\"u\",\"mimeType\":1},\"metadata\":{\"filename\":\"f\"}},"
  "{\"type\":\"binary\",\"url\":\"u\",\"filename\":\"f\",\"mimeType\":1}]}]}",
  /* Nulls in arrays, parts of every kind, a part with no type or a typed
   * one with text, non-object parts and messages. */
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[null,3,[],{\"content\":\"text\"},{\"content\":null},"
  "{\"content\":[null,1,\"s\",[{\"type\":\"binary\",\"data\":\"x\"}],{\"metadata\":null},{\"type\":null,\"metadata\":null},"
  "{\"type\":\"text\",\"metadata\":null},{\"type\":\"TEXT\",\"metadata\":null},{\"type\":\"audio\",\"metadata\":1},"
  "{\"type\":\"video\",\"metadata\":null,\"source\":null},{\"type\":\"binary\",\"metadata\":null,\"data\":\"x\"}]}]}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":{\"0\":{\"content\":[{\"type\":\"binary\",\"data\":\"x\"}]}}}",
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"content\":[{\"type\":\"binary\",\"data\":\"x\"}]},"
  "{\"content\":[{\"type\":\"binary\",\"url\":\"y\",\"mimeType\":\"image/\"}]}],\"rawEvent\":null}",
  /* Numbers of both kinds around translated members keep their kinds. */
  "{\"type\":\"MESSAGES_SNAPSHOT\",\"n\":1,\"d\":1.0,\"e\":-0.0,\"big\":9007199254740993,\"messages\":[{\"content\":["
  "{\"type\":\"binary\",\"data\":\"x\",\"size\":2.0}]}]}",
  "{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":{\"messages\":[{\"content\":[{\"type\":\"binary\",\"data\":\"x\"}]}]}}",
};

static void
test_hand_written (void)
{
  Streams streams = { .seed = 1 };

  g_test_summary ("The old and the new translation agree on every deprecated form");

  for (guint i = 0; i < G_N_ELEMENTS (hand_written); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = json_from_string (hand_written[i], &error);
      JsonObject *object;
      const char *type;

      g_assert_no_error (error);
      object = json_node_get_object (node);
      type = _agui_json_object_get_string (object, "type");
      /* In order first, so that the THINKING_* stream opens and closes. */
      if (type != NULL)
        run_case (&streams, object, type);
    }

  for (guint i = 0; i < G_N_ELEMENTS (hand_written); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (hand_written[i], NULL);

      run_all (&streams, node);
    }

  streams_clear (&streams);
}

static void
test_seeded_uuids (void)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_test_summary ("The harness's premise: a seed decides the ids minted");

  g_random_set_seed (7);
  a = g_uuid_string_random ();
  g_random_set_seed (7);
  b = g_uuid_string_random ();
  g_assert_cmpstr (a, ==, b);
}

/* What json_node_equal () (json-glib 1.6), which the old duplicate check
 * used, and _agui_json_value_equal (), which the new one uses, make of
 * numbers. */
static void
test_equality_of_numbers (void)
{
  static const struct {
    const char *a, *b;
    gboolean json_glib, tree;
  } cases[] = {
    { "1", "1.0", TRUE, TRUE },
    { "1.0", "1", TRUE, TRUE },
    { "9007199254740993", "9007199254740992.0", TRUE, FALSE },
    { "9007199254740993", "9007199254740992", FALSE, FALSE },
    { "{\"a\":1,\"b\":\"x\"}", "{\"b\":\"x\",\"a\":1.0}", TRUE, TRUE },
    { "[1,2]", "[2,1]", FALSE, FALSE },
    { "\"1\"", "1", FALSE, FALSE },
    { "null", "{}", FALSE, FALSE },
  };

  g_test_summary ("json_node_equal () and the tree's equality on numbers");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) a = json_from_string (cases[i].a, NULL);
      g_autoptr(JsonNode) b = json_from_string (cases[i].b, NULL);
      g_auto(AguiJsonValue) tree_a = AGUI_JSON_VALUE_INIT;
      g_auto(AguiJsonValue) tree_b = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_node (&tree_a, a);
      _agui_json_value_set_node (&tree_b, b);
      g_test_message ("%s vs %s: json_node_equal %d, _agui_json_value_equal %d", cases[i].a, cases[i].b,
                      json_node_equal (a, b), _agui_json_value_equal (&tree_a, &tree_b));
      g_assert_cmpint (json_node_equal (a, b), ==, cases[i].json_glib);
      g_assert_cmpint (_agui_json_value_equal (&tree_a, &tree_b), ==, cases[i].tree);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compat/differential/seeded-uuids", test_seeded_uuids);
  g_test_add_func ("/compat/differential/equality-of-numbers", test_equality_of_numbers);
  g_test_add_func ("/compat/differential/hand-written", test_hand_written);
  g_test_add_func ("/compat/differential/corpora", test_corpora);

  return g_test_run ();
}
