/* test-event-schema.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-event-private.h"
#include "agui-event-reader-private.h"
#include "agui-json-doc-private.h"
#include "agui-json-private.h"

/* Schema enforcement of a nested event, on the compact tree
 * (_agui_event_schema_enforce_tree ()), reached two ways: the tree the
 * event reader makes of a frame (the parser's way) and the tree copied
 * from json-glib's reading of the same text (the reference parser's and
 * the public constructors' way). Both must give the same warnings, the
 * same error and the same members, number kinds and order included, on
 * every event of the fixtures and the fuzz corpora, as every event type,
 * and on those events broken one place at a time. Until the tree walk
 * replaced it, a JsonObject form had a walk of its own, and this test held
 * the two equal. */

/* What one enforcement gave. */
typedef struct
{
  gboolean  valid;
  char     *warnings;    /* one a line */
  char     *error;       /* domain, code, message */
  char     *typed;       /* the members with their kinds, when valid */
  char     *printed;     /* the members as JSON, when valid */
} Outcome;

static void
outcome_clear (Outcome *outcome)
{
  g_free (outcome->warnings);
  g_free (outcome->error);
  g_free (outcome->typed);
  g_free (outcome->printed);
}

/* A dump that tells 1 from 1.0, and keeps the members' order: what the
 * printer does not show (it prints 1.0 as 1.0 but an integer's kind is
 * what the folding reads). Written for each form on its own, so that
 * neither conversion is trusted. */
static void
dump_node (GString  *out,
           JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) names = json_object_get_members (object);

        g_string_append_c (out, '{');
        for (const GList *l = names; l != NULL; l = l->next)
          {
            g_autofree char *escaped = g_strescape (l->data, NULL);

            g_string_append_printf (out, "\"%s\":", escaped);
            dump_node (out, json_object_get_member (object, l->data));
            g_string_append_c (out, ',');
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
            dump_node (out, json_array_get_element (array, i));
            g_string_append_c (out, ',');
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
    case G_TYPE_INT64:
      g_string_append_printf (out, "i%" G_GINT64_FORMAT, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      g_string_append_printf (out, "d%.17g", json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      {
        g_autofree char *escaped = g_strescape (json_node_get_string (node), NULL);

        g_string_append_printf (out, "\"%s\"", escaped);
      }
      break;
    default:
      g_string_append_printf (out, "<%s>", g_type_name (json_node_get_value_type (node)));
      break;
    }
}

static void
dump_tree (GString             *out,
           const AguiJsonValue *value)
{
  switch ((AguiJsonDocKind) value->kind)
    {
    case AGUI_JSON_DOC_OBJECT:
      g_string_append_c (out, '{');
      for (guint s = 0; s < _agui_json_object_get_n_slots (value->u.object); s++)
        {
          const char *name = _agui_json_object_slot_name (value->u.object, s);
          g_autofree char *escaped = NULL;

          if (name == NULL)
            continue;

          escaped = g_strescape (name, NULL);
          g_string_append_printf (out, "\"%s\":", escaped);
          dump_tree (out, _agui_json_object_slot_value (value->u.object, s));
          g_string_append_c (out, ',');
        }
      g_string_append_c (out, '}');
      break;

    case AGUI_JSON_DOC_ARRAY:
      g_string_append_c (out, '[');
      for (guint i = 0; i < _agui_json_array_get_length (value->u.array); i++)
        {
          dump_tree (out, _agui_json_array_get (value->u.array, i));
          g_string_append_c (out, ',');
        }
      g_string_append_c (out, ']');
      break;

    case AGUI_JSON_DOC_NULL:
      g_string_append (out, "null");
      break;
    case AGUI_JSON_DOC_INT:
      g_string_append_printf (out, "i%" G_GINT64_FORMAT, value->u.integer);
      break;
    case AGUI_JSON_DOC_DOUBLE:
      g_string_append_printf (out, "d%.17g", value->u.number);
      break;
    case AGUI_JSON_DOC_BOOLEAN:
      g_string_append (out, value->u.boolean ? "true" : "false");
      break;
    case AGUI_JSON_DOC_STRING:
    case AGUI_JSON_DOC_SHORT_STRING:
      {
        g_autofree char *escaped = g_strescape (_agui_json_value_get_string (value), NULL);

        g_string_append_printf (out, "\"%s\"", escaped);
      }
      break;
    case AGUI_JSON_DOC_HOLE:
    default:
      g_assert_not_reached ();
    }
}

static char *
join_warnings (GPtrArray *warnings)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (warnings, i));

  return g_string_free (out, FALSE);
}

static char *
describe_error (const GError *error)
{
  if (error == NULL)
    return NULL;

  return g_strdup_printf ("%s %d %s", g_quark_to_string (error->domain), error->code, error->message);
}

/* Takes @tree. */
static void
enforce_value (AguiEventType  type,
               AguiJsonValue *tree,
               Outcome       *outcome)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;

  outcome->valid = _agui_event_schema_enforce_tree (type, tree->u.object, warnings, &error);
  g_assert_true (outcome->valid == (error == NULL));
  outcome->warnings = join_warnings (warnings);
  outcome->error = describe_error (error);

  if (outcome->valid)
    {
      GString *typed = g_string_new (NULL);

      dump_tree (typed, tree);
      outcome->typed = g_string_free (typed, FALSE);
      outcome->printed = _agui_json_value_to_string (tree, FALSE, NULL);
    }

  _agui_json_value_clear (tree);
}

/* The reference's way in: json-glib's tree, copied */
static void
enforce_tree (AguiEventType  type,
              JsonNode      *input,
              Outcome       *outcome)
{
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_node (&tree, input);
  enforce_value (type, &tree, outcome);
}

/* The parser's way in: the event reader's tree of the text */
static void
enforce_read (AguiEventType  type,
              JsonNode      *input,
              Outcome       *outcome)
{
  g_autoptr(AguiEventReader) reader = _agui_event_reader_new ();
  g_autofree char *text = _agui_json_to_string (input, FALSE, NULL);
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;

  g_assert_cmpint (_agui_event_reader_read (reader, text, strlen (text), NULL), ==, AGUI_READ_OK);
  _agui_event_reader_steal_tree (reader, &tree);
  enforce_value (type, &tree, outcome);
}

typedef struct
{
  guint runs;
  guint valid;
  guint warned;
  guint converted;
} Tally;

/* Both ways in on @input as an event of @type: the same outcome. */
static void
compare (AguiEventType  type,
         JsonNode      *input,
         Tally         *tally)
{
  Outcome object = { 0 };
  Outcome tree = { 0 };

  enforce_read (type, input, &object);
  enforce_tree (type, input, &tree);

  if (object.valid != tree.valid ||
      g_strcmp0 (object.warnings, tree.warnings) != 0 ||
      g_strcmp0 (object.error, tree.error) != 0 ||
      g_strcmp0 (object.typed, tree.typed) != 0 ||
      g_strcmp0 (object.printed, tree.printed) != 0)
    {
      g_autofree char *text = _agui_json_to_string (input, FALSE, NULL);

      g_test_message ("%s on %s", agui_event_type_to_string (type), text);
      g_test_message ("read:   %d\n%s%s\n%s", object.valid, object.warnings,
                      object.error ? object.error : "", object.typed ? object.typed : "");
      g_test_message ("tree:   %d\n%s%s\n%s", tree.valid, tree.warnings,
                      tree.error ? tree.error : "", tree.typed ? tree.typed : "");
      g_assert_cmpint (object.valid, ==, tree.valid);
      g_assert_cmpstr (object.warnings, ==, tree.warnings);
      g_assert_cmpstr (object.error, ==, tree.error);
      g_assert_cmpstr (object.typed, ==, tree.typed);
      g_assert_cmpstr (object.printed, ==, tree.printed);
    }

  tally->runs++;
  tally->valid += object.valid;
  tally->warned += object.warnings[0] != '\0';
  /* nothing removed, yet changed: a double that came out an integer */
  if (object.valid && object.warnings[0] == '\0')
    {
      GString *before = g_string_new (NULL);

      dump_node (before, input);
      tally->converted += strcmp (before->str, object.typed) != 0;
      g_string_free (before, TRUE);
    }

  outcome_clear (&object);
  outcome_clear (&tree);
}

/* Inputs */

typedef struct
{
  GPtrArray  *objects;   /* JsonNode, each an object, each once */
  GHashTable *seen;      /* their text */
} Inputs;

static void
inputs_add (Inputs   *inputs,
            JsonNode *node)
{
  char *text;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  text = _agui_json_to_string (node, FALSE, NULL);
  if (text == NULL || !g_hash_table_add (inputs->seen, text))
    return;

  g_ptr_array_add (inputs->objects, _agui_json_node_copy_deep (node));
}

static void
inputs_add_text (Inputs     *inputs,
                 const char *text,
                 gssize      length)
{
  g_autoptr(JsonNode) node = _agui_json_parse (text, length, NULL);

  inputs_add (inputs, node);
}

/* Each frame's data lines, joined as an SSE decoder joins them. */
static void
inputs_add_sse (Inputs     *inputs,
                const char *body)
{
  g_autofree char *unix_body = NULL;
  g_auto(GStrv) frames = NULL;
  GString *data = g_string_new (NULL);

  {
    g_auto(GStrv) pieces = g_strsplit (body, "\r\n", -1);

    unix_body = g_strjoinv ("\n", pieces);
  }
  frames = g_strsplit (unix_body, "\n\n", -1);

  for (guint f = 0; frames[f] != NULL; f++)
    {
      g_auto(GStrv) lines = g_strsplit (frames[f], "\n", -1);

      g_string_truncate (data, 0);
      for (guint l = 0; lines[l] != NULL; l++)
        {
          const char *line = lines[l];

          if (!g_str_has_prefix (line, "data:"))
            continue;
          line += strlen ("data:");
          if (line[0] == ' ')
            line++;
          if (data->len > 0)
            g_string_append_c (data, '\n');
          g_string_append (data, line);
        }
      if (data->len > 0)
        inputs_add_text (inputs, data->str, data->len);
    }

  g_string_free (data, TRUE);
}

static void
inputs_add_fixture (Inputs     *inputs,
                    const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *fixture;
  JsonArray *events;
  JsonObject *setup;
  const char *sse;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  root = _agui_json_parse (contents, -1, NULL);
  g_assert_nonnull (root);
  fixture = json_node_get_object (root);

  if ((events = _agui_json_object_get_array (fixture, "events")) != NULL)
    {
      for (guint i = 0; i < json_array_get_length (events); i++)
        inputs_add (inputs, json_array_get_element (events, i));
    }

  if ((sse = _agui_json_object_get_string (fixture, "sse")) != NULL)
    inputs_add_sse (inputs, sse);

  /* A setup is a run's input: an echo of it is a RUN_STARTED. */
  if ((setup = _agui_json_object_get_object (fixture, "setup")) != NULL)
    {
      g_autoptr(JsonObject) run = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      json_object_set_string_member (run, "type", "RUN_STARTED");
      json_object_set_string_member (run, "threadId", "t");
      json_object_set_string_member (run, "runId", "r");
      json_object_set_member (run, "input", _agui_json_node_new_object (json_object_ref (setup)));
      node = _agui_json_node_new_object (g_steal_pointer (&run));
      inputs_add (inputs, node);

      if (json_object_has_member (setup, "messages"))
        {
          g_autoptr(JsonObject) snapshot = json_object_new ();
          g_autoptr(JsonNode) snapshot_node = NULL;

          json_object_set_string_member (snapshot, "type", "MESSAGES_SNAPSHOT");
          json_object_set_member (snapshot, "messages",
                                  json_node_copy (json_object_get_member (setup, "messages")));
          snapshot_node = _agui_json_node_new_object (g_steal_pointer (&snapshot));
          inputs_add (inputs, snapshot_node);
        }
    }
}

typedef void (*FileFunc) (Inputs     *inputs,
                          const char *path);

static guint
inputs_add_dir (Inputs     *inputs,
                const char *dir_path,
                const char *suffix,
                FileFunc    func)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n_files = 0;

  if (dir == NULL)
    return 0;

  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      if ((suffix != NULL && !g_str_has_suffix (name, suffix)) ||
          !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      func (inputs, path);
      n_files++;
    }

  return n_files;
}

static void
add_sse_file (Inputs     *inputs,
              const char *path)
{
  g_autofree char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  inputs_add_sse (inputs, contents);
}

static void
add_json_file (Inputs     *inputs,
               const char *path)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  inputs_add_text (inputs, contents, length);
}

/* Events broken one place at a time */

/* What a hostile sender puts where a value is wanted: a double where an
 * integer is, one that is not whole, one beyond 2^53, and every kind. */
static const char * const replacements[] = {
  "null", "1.0", "1e3", "-1.0", "1.5", "1e300", "9007199254740993", "\"s\"",
  "true", "{}", "[]", "{\"type\":\"unknown\"}", "[{\"type\":\"unknown\"}]",
};

typedef void (*MutantFunc) (JsonNode *mutant,
                            gpointer  user_data);

/* The value at @path (slot numbers and indices) under @root. */
static AguiJsonValue *
tree_at (AguiJsonValue *root,
         GArray        *path)
{
  AguiJsonValue *value = root;

  for (guint i = 0; i < path->len; i++)
    {
      guint step = g_array_index (path, guint, i);

      if (value->kind == AGUI_JSON_DOC_OBJECT)
        value = _agui_json_object_slot_value (value->u.object, step);
      else
        value = _agui_json_array_get (value->u.array, step);
    }

  return value;
}

/* Calls @func with a copy of @root in which the value at @path is
 * replaced by each replacement in turn, or, for an object, one unknown
 * member added; then does the same under it. The tree is changed on
 * copies: json-glib 1.6 cannot re-initialise a value node in place. */
static void
mutate_at (AguiJsonValue *root,
           GArray        *path,
           MutantFunc     func,
           gpointer       user_data)
{
  AguiJsonValue *value = tree_at (root, path);

  for (guint r = 0; r < G_N_ELEMENTS (replacements) && path->len > 0; r++)
    {
      g_autoptr(JsonNode) replacement = _agui_json_parse (replacements[r], -1, NULL);
      g_autoptr(JsonNode) mutant = NULL;
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

      g_assert_nonnull (replacement);
      _agui_json_value_copy (&copy, root);
      _agui_json_value_set_node (tree_at (&copy, path), replacement);
      mutant = _agui_json_value_to_node (&copy);
      _agui_json_value_clear (&copy);
      func (mutant, user_data);
    }

  if (value->kind == AGUI_JSON_DOC_OBJECT)
    {
      g_autoptr(JsonNode) mutant = NULL;
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;
      AguiJsonValue one = AGUI_JSON_VALUE_INIT;

      /* "~" and "/" are escaped in the warning's pointer */
      _agui_json_value_copy (&copy, root);
      _agui_json_value_set_int (&one, 1);
      _agui_json_object_append (tree_at (&copy, path)->u.object, "zz~/", &one);
      mutant = _agui_json_value_to_node (&copy);
      _agui_json_value_clear (&copy);
      func (mutant, user_data);

      /* an integer member every event has, written as a double */
      for (guint r = 0; path->len == 0 && r < 3; r++)
        {
          g_autoptr(JsonNode) timestamp_mutant = NULL;
          AguiJsonValue timestamp = AGUI_JSON_VALUE_INIT;

          _agui_json_value_copy (&copy, root);
          _agui_json_value_set_double (&timestamp, (double[]) { 1e12, 2.5, -3.0 }[r]);
          _agui_json_object_set (copy.u.object, "timestamp", &timestamp);
          timestamp_mutant = _agui_json_value_to_node (&copy);
          _agui_json_value_clear (&copy);
          func (timestamp_mutant, user_data);
        }

      /* an integer member every event has, written as a double */
      for (guint r = 0; path->len == 0 && r < 3; r++)
        {
          g_autoptr(JsonNode) timestamp_mutant = NULL;
          AguiJsonValue timestamp = AGUI_JSON_VALUE_INIT;

          _agui_json_value_copy (&copy, root);
          _agui_json_value_set_double (&timestamp, (double[]) { 1e12, 2.5, -3.0 }[r]);
          _agui_json_object_set (copy.u.object, "timestamp", &timestamp);
          timestamp_mutant = _agui_json_value_to_node (&copy);
          _agui_json_value_clear (&copy);
          func (timestamp_mutant, user_data);
        }

      for (guint s = 0; s < _agui_json_object_get_n_slots (value->u.object); s++)
        {
          g_array_append_val (path, s);
          mutate_at (root, path, func, user_data);
          g_array_set_size (path, path->len - 1);
        }
    }
  else if (value->kind == AGUI_JSON_DOC_ARRAY)
    {
      for (guint i = 0; i < _agui_json_array_get_length (value->u.array); i++)
        {
          g_array_append_val (path, i);
          mutate_at (root, path, func, user_data);
          g_array_set_size (path, path->len - 1);
        }
    }
}

static void
each_mutant (JsonNode   *root,
             MutantFunc  func,
             gpointer    user_data)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;

  _agui_json_value_set_node (&tree, root);
  mutate_at (&tree, path, func, user_data);
  _agui_json_value_clear (&tree);
}

/* The differential */

static void
compare_mutant (JsonNode *mutant,
                gpointer  user_data)
{
  gpointer *data = user_data;

  compare (GPOINTER_TO_UINT (data[0]), mutant, data[1]);
}

static void
test_differential (void)
{
  Inputs inputs = {
    g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref),
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
  };
  g_autofree char *fixtures = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autofree char *shared = g_test_build_filename (G_TEST_DIST, "..", "..", "shared", "fixtures", NULL);
  g_autofree char *pipeline = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "pipeline", NULL);
  g_autofree char *sse = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "sse-decoder", NULL);
  g_autofree char *json = g_test_build_filename (G_TEST_DIST, "fuzz", "corpus", "json", NULL);
  Tally all_types = { 0 };
  Tally own_type = { 0 };
  Tally mutants = { 0 };
  guint n_fixtures;

  n_fixtures = inputs_add_dir (&inputs, fixtures, ".json", inputs_add_fixture);
  n_fixtures += inputs_add_dir (&inputs, shared, ".json", inputs_add_fixture);
  /* the copy in tests/ at least: a test that finds nothing proves nothing */
  g_assert_cmpuint (n_fixtures, >=, 80);
  g_assert_cmpuint (inputs_add_dir (&inputs, pipeline, NULL, add_sse_file), >=, 3);
  inputs_add_dir (&inputs, sse, NULL, add_sse_file);
  g_assert_cmpuint (inputs_add_dir (&inputs, json, NULL, add_json_file), >=, 3);
  g_assert_cmpuint (inputs.objects->len, >=, 250);

  for (guint i = 0; i < inputs.objects->len; i++)
    {
      JsonNode *input = g_ptr_array_index (inputs.objects, i);
      const char *name = _agui_json_object_get_string (json_node_get_object (input), "type");
      AguiEventType type;

      /* Every event as every type: the errors of mistyped members */
      for (type = 0; type <= AGUI_EVENT_SUBAGENT_ERROR; type++)
        compare (type, input, &all_types);

      if (name != NULL && agui_event_type_from_string (name, &type))
        {
          gpointer data[] = { GUINT_TO_POINTER (type), &mutants };

          compare (type, input, &own_type);
          each_mutant (input, compare_mutant, data);
        }
    }

  g_test_message ("%u events; as every type %u runs (%u valid, %u warned); "
                  "as their own %u (%u valid, %u warned, %u converted); "
                  "broken %u (%u valid, %u warned, %u converted)",
                  inputs.objects->len, all_types.runs, all_types.valid, all_types.warned,
                  own_type.runs, own_type.valid, own_type.warned, own_type.converted,
                  mutants.runs, mutants.valid, mutants.warned, mutants.converted);

  /* The corpus reaches every outcome */
  g_assert_cmpuint (own_type.valid, >=, 200);
  g_assert_cmpuint (mutants.valid, >, 0);
  g_assert_cmpuint (mutants.warned, >, 0);
  g_assert_cmpuint (mutants.converted, >, 0);
  g_assert_cmpuint (mutants.runs - mutants.valid, >, 0);

  g_ptr_array_unref (inputs.objects);
  g_hash_table_unref (inputs.seen);
}

/* Behaviour, on both forms */

/* Enforces @json as an event of @type on both forms: each gives
 * @warnings (NULL-terminated, NULL for none), and either @error (the
 * message of an AGUI_ERROR_INVALID_EVENT) or the members @expected, as
 * compact JSON. */
static void
assert_enforced (AguiEventType        type,
                 const char          *json,
                 const char * const  *warnings,
                 const char          *error,
                 const char          *expected)
{
  g_autoptr(JsonNode) input = _agui_json_parse (json, -1, NULL);
  g_autofree char *expected_warnings = NULL;
  g_autofree char *expected_error = NULL;
  Outcome outcomes[2] = { { 0 }, { 0 } };

  g_assert_nonnull (input);

  {
    GString *joined = g_string_new (NULL);

    for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
      g_string_append_printf (joined, "%s\n", warnings[i]);
    expected_warnings = g_string_free (joined, FALSE);
  }
  if (error != NULL)
    expected_error = g_strdup_printf ("%s %d %s", g_quark_to_string (AGUI_ERROR),
                                      AGUI_ERROR_INVALID_EVENT, error);

  enforce_read (type, input, &outcomes[0]);
  enforce_tree (type, input, &outcomes[1]);

  for (guint i = 0; i < G_N_ELEMENTS (outcomes); i++)
    {
      g_assert_cmpstr (outcomes[i].warnings, ==, expected_warnings);
      g_assert_cmpstr (outcomes[i].error, ==, expected_error);
      g_assert_cmpstr (outcomes[i].printed, ==, expected);
      g_assert_cmpint (outcomes[i].valid, ==, expected != NULL);
      outcome_clear (&outcomes[i]);
    }
}

#define REMOVED(pointer, event) "Removed unrecognised material at '" pointer "' on " event

static void
test_unknown_members (void)
{
  const char * const warnings[] = {
    REMOVED ("/zz", "RUN_STARTED"),
    REMOVED ("/input/zz", "RUN_STARTED"),
    REMOVED ("/input/messages/0/zz", "RUN_STARTED"),
    REMOVED ("/input/messages/0/content/0/zz", "RUN_STARTED"),
    REMOVED ("/input/messages/0/content/1/source/zz~0~1", "RUN_STARTED"),
    REMOVED ("/input/tools/0/zz", "RUN_STARTED"),
    NULL
  };

  assert_enforced (AGUI_EVENT_RUN_STARTED,
                   "{\"type\":\"RUN_STARTED\",\"zz\":1,\"threadId\":\"t\",\"runId\":\"r\","
                   "\"input\":{\"threadId\":\"t\",\"zz\":true,\"runId\":\"r\",\"messages\":["
                   "{\"id\":\"u\",\"role\":\"user\",\"zz\":null,\"content\":["
                   "{\"type\":\"text\",\"text\":\"hi\",\"zz\":[]},"
                   "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"zz~/\":{},\"value\":\"v\"}}]}],"
                   "\"tools\":[{\"name\":\"n\",\"zz\":\"x\",\"description\":\"d\"}]}}",
                   warnings, NULL,
                   "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\","
                   "\"input\":{\"threadId\":\"t\",\"runId\":\"r\",\"messages\":["
                   "{\"id\":\"u\",\"role\":\"user\",\"content\":["
                   "{\"type\":\"text\",\"text\":\"hi\"},"
                   "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"v\"}}]}],"
                   "\"tools\":[{\"name\":\"n\",\"description\":\"d\"}]}}");

  /* A patch operation keeps what it does not know (open variants) */
  assert_enforced (AGUI_EVENT_STATE_DELTA,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"extra\":2,\"path\":\"/a\",\"value\":null}]}",
                   NULL, NULL,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"extra\":2,\"path\":\"/a\",\"value\":null}]}");
}

/* Integers written as doubles become integers where they were. */
static void
test_integers (void)
{
  g_autoptr(JsonNode) input = NULL;
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;
  int slot;

  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"timestamp\":1.0,\"messageId\":\"m\"}",
                   NULL, NULL,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"timestamp\":1,\"messageId\":\"m\"}");
  assert_enforced (AGUI_EVENT_RUN_FINISHED,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\","
                   "\"usage\":[{\"inputTokens\":1e3,\"model\":\"m\",\"outputTokens\":-0.0,\"totalTokens\":9007199254740991}]}",
                   NULL, NULL,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\","
                   "\"usage\":[{\"inputTokens\":1000,\"model\":\"m\",\"outputTokens\":0,\"totalTokens\":9007199254740991}]}");

  /* The kind, not only the text: the tree holds an integer */
  input = _agui_json_parse ("{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"timestamp\":2.0}", -1, NULL);
  _agui_json_value_set_node (&tree, input);
  g_assert_true (_agui_event_schema_enforce_tree (AGUI_EVENT_TEXT_MESSAGE_END, tree.u.object, NULL, NULL));
  slot = _agui_json_object_find (tree.u.object, "timestamp");
  g_assert_cmpint (slot, ==, 2);
  g_assert_cmpint (_agui_json_object_slot_value (tree.u.object, slot)->kind, ==, AGUI_JSON_DOC_INT);
  g_assert_cmpint (_agui_json_object_slot_value (tree.u.object, slot)->u.integer, ==, 2);
  _agui_json_value_clear (&tree);

  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"timestamp\":1.5,\"messageId\":\"m\"}",
                   NULL, "TEXT_MESSAGE_START: member 'timestamp' must be an integer", NULL);
  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"timestamp\":1e300,\"messageId\":\"m\"}",
                   NULL, "TEXT_MESSAGE_START: member 'timestamp' must be an integer", NULL);
  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"timestamp\":9007199254740993,\"messageId\":\"m\"}",
                   NULL, "TEXT_MESSAGE_START: member 'timestamp' must be an integer", NULL);
  assert_enforced (AGUI_EVENT_RUN_FINISHED,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\",\"usage\":[{\"inputTokens\":-1.0}]}",
                   NULL, "RUN_FINISHED: member 'usage[0].inputTokens' must be a non-negative integer", NULL);
}

static void
test_unknown_variants (void)
{
  const char * const content_warnings[] = {
    REMOVED ("/messages/0/content/1", "MESSAGES_SNAPSHOT"),
    REMOVED ("/messages/0/content/2", "MESSAGES_SNAPSHOT"),
    /* an unknown source takes its part with it: it is required there */
    REMOVED ("/messages/0/content/3", "MESSAGES_SNAPSHOT"),
    REMOVED ("/messages/1", "MESSAGES_SNAPSHOT"),
    NULL
  };
  const char * const outcome_warnings[] = {
    REMOVED ("/outcome", "RUN_FINISHED"),
    NULL
  };
  const char * const patch_warnings[] = {
    REMOVED ("/delta/0", "STATE_DELTA"),
    NULL
  };

  assert_enforced (AGUI_EVENT_MESSAGES_SNAPSHOT,
                   "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                   "{\"id\":\"u\",\"role\":\"user\",\"content\":["
                   "{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"hologram\"},{\"type\":\"smell\",\"text\":1},"
                   "{\"type\":\"image\",\"source\":{\"type\":\"ftp\",\"value\":\"v\"}},"
                   "{\"type\":\"text\",\"text\":\"b\"}]},"
                   "{\"id\":\"x\",\"role\":\"alien\"},"
                   "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"c\"}]}",
                   content_warnings, NULL,
                   "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":["
                   "{\"id\":\"u\",\"role\":\"user\",\"content\":["
                   "{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"text\",\"text\":\"b\"}]},"
                   "{\"id\":\"a\",\"role\":\"assistant\",\"content\":\"c\"}]}");

  /* an optional member of an unknown variant goes alone */
  assert_enforced (AGUI_EVENT_RUN_FINISHED,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"outcome\":{\"type\":\"maybe\"},\"runId\":\"r\"}",
                   outcome_warnings, NULL,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}");

  assert_enforced (AGUI_EVENT_STATE_DELTA,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"frobnicate\",\"path\":\"/a\"},"
                   "{\"op\":\"remove\",\"path\":\"/b\"}]}",
                   patch_warnings, NULL,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/b\"}]}");

  /* every element of an array may go */
  assert_enforced (AGUI_EVENT_STATE_DELTA,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"frobnicate\",\"path\":\"/a\"}]}",
                   patch_warnings, NULL,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[]}");
}

static void
test_errors (void)
{
  const char * const warnings[] = {
    REMOVED ("/zz", "RUN_FINISHED"),
    NULL
  };

  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":null}",
                   NULL, "TEXT_MESSAGE_START: member 'messageId' must be a string, not null", NULL);
  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"role\":\"user\"}",
                   NULL, "TEXT_MESSAGE_START: required member 'messageId' is missing", NULL);
  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"rawEvent\":null}",
                   NULL, "TEXT_MESSAGE_START: member 'rawEvent' must not be null", NULL);
  assert_enforced (AGUI_EVENT_TEXT_MESSAGE_START,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"tool\"}",
                   NULL, "TEXT_MESSAGE_START: member 'role' must be one of 'developer', 'system', 'assistant', 'user'", NULL);
  /* null where null is data */
  assert_enforced (AGUI_EVENT_STATE_SNAPSHOT,
                   "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":null}",
                   NULL, NULL, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":null}");

  /* The warnings before the error are given too */
  assert_enforced (AGUI_EVENT_RUN_FINISHED,
                   "{\"type\":\"RUN_FINISHED\",\"zz\":0,\"threadId\":\"t\",\"runId\":\"r\","
                   "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[]}}",
                   warnings, "RUN_FINISHED: member 'outcome.interrupts' must hold at least 1 element", NULL);
  assert_enforced (AGUI_EVENT_RUN_FINISHED,
                   "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\","
                   "\"outcome\":{\"type\":\"interrupt\",\"interrupts\":[{\"id\":\"i\"}]}}",
                   NULL, "RUN_FINISHED: required member 'outcome.interrupts[0].reason' is missing", NULL);
  assert_enforced (AGUI_EVENT_MESSAGES_SNAPSHOT,
                   "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\","
                   "\"content\":[{\"type\":5}]}]}",
                   NULL, "MESSAGES_SNAPSHOT: member 'messages[0].content[0].type' must be a string", NULL);
  assert_enforced (AGUI_EVENT_MESSAGES_SNAPSHOT,
                   "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"content\":\"c\"}]}",
                   NULL, "MESSAGES_SNAPSHOT: required member 'messages[0].role' is missing", NULL);
  assert_enforced (AGUI_EVENT_STATE_DELTA,
                   "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"add\",\"path\":\"a~2\",\"value\":1}]}",
                   NULL, "STATE_DELTA: member 'delta[0].path' must be a JSON Pointer (\"\" or \"/...\", with '~' only as ~0 or ~1)", NULL);
}

/* A removed member of a large object may stay a hole in the tree: what
 * reads the tree, the enforcement itself included, skips it. */
static void
test_tree_holes (void)
{
  g_autoptr(JsonNode) input = NULL;
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;
  AguiJsonValue removed = AGUI_JSON_VALUE_INIT;
  g_autofree char *printed = NULL;
  AguiJsonDocObject *object;

  /* eight known members, an unknown one, and one the caller removed */
  input = _agui_json_parse ("{\"type\":\"TEXT_MESSAGE_START\",\"gone\":1,\"messageId\":\"m\","
                            "\"role\":\"user\",\"name\":\"n\",\"timestamp\":3.0,\"zz\":2,"
                            "\"metadata\":{},\"rawEvent\":0,\"subagentRunId\":\"s\"}", -1, NULL);
  _agui_json_value_set_node (&tree, input);
  object = tree.u.object;
  _agui_json_object_remove_slot (object, _agui_json_object_find (object, "gone"), &removed);
  _agui_json_value_clear (&removed);
  g_assert_cmpuint (_agui_json_object_get_n_slots (object), ==, 10);

  g_assert_true (_agui_event_schema_enforce_tree (AGUI_EVENT_TEXT_MESSAGE_START, object, warnings, NULL));
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (warnings, 0), ==, REMOVED ("/zz", "TEXT_MESSAGE_START"));
  g_assert_cmpuint (_agui_json_object_get_size (object), ==, 8);
  g_assert_cmpint (_agui_json_object_find (object, "zz"), ==, -1);
  printed = _agui_json_value_to_string (&tree, FALSE, NULL);
  g_assert_cmpstr (printed, ==,
                   "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"user\",\"name\":\"n\","
                   "\"timestamp\":3,\"metadata\":{},\"rawEvent\":0,\"subagentRunId\":\"s\"}");

  /* and again, holes and all: nothing more to do */
  g_ptr_array_set_size (warnings, 0);
  g_assert_true (_agui_event_schema_enforce_tree (AGUI_EVENT_TEXT_MESSAGE_START, object, warnings, NULL));
  g_assert_cmpuint (warnings->len, ==, 0);
  g_assert_cmpuint (_agui_json_object_get_size (object), ==, 8);

  _agui_json_value_clear (&tree);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/agui/event-schema/unknown-members", test_unknown_members);
  g_test_add_func ("/agui/event-schema/integers", test_integers);
  g_test_add_func ("/agui/event-schema/unknown-variants", test_unknown_variants);
  g_test_add_func ("/agui/event-schema/errors", test_errors);
  g_test_add_func ("/agui/event-schema/tree-holes", test_tree_holes);
  g_test_add_func ("/agui/event-schema/differential", test_differential);

  return g_test_run ();
}
