/* test-json-doc.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <string.h>

#include "agui.h"
#include "agui-json-doc-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-test-patch.h"

/* The shared state's own tree against json-glib's: what it holds, finds,
 * prints and compares must be what the same json-glib tree would give. */

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = _agui_json_parse (json, -1, &error);

  g_assert_no_error (error);

  return node;
}

static void
assert_prints_as (const AguiJsonValue *value,
                  JsonNode            *node)
{
  for (guint pretty = 0; pretty < 2; pretty++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) doc_error = NULL;
      g_autofree char *expected = _agui_json_to_string (node, pretty, &error);
      g_autofree char *actual = _agui_json_value_to_string (value, pretty, &doc_error);

      g_assert_cmpstr (actual, ==, expected);
      if (error != NULL)
        g_assert_cmpstr (doc_error->message, ==, error->message);
      else
        g_assert_no_error (doc_error);
    }
}

static void
test_index_threshold (void)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object = _agui_json_value_set_object (&document, 0);
  g_autoptr(JsonNode) node = _agui_json_node_new_object (json_object_new ());
  JsonObject *reference = json_node_get_object (node);

  g_test_summary ("Members are found before, at and past the size where the hash index is "
                  "built, after removals, compaction and re-adding, in json-glib's order");

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "k%u" : "a rather long member name %u", i);
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_int (&value, i);
      g_assert_cmpint (_agui_json_object_find (object, name), ==, -1);
      g_assert_cmpuint (_agui_json_object_append (object, name, &value), ==, i);
      json_object_set_int_member (reference, name, i);

      for (guint j = 0; j <= i; j++)
        {
          g_autofree char *other = g_strdup_printf (j % 2 ? "k%u" : "a rather long member name %u", j);

          g_assert_cmpint (_agui_json_object_find (object, other), ==, (int) j);
        }
      assert_prints_as (&document, node);
    }

  /* Every third goes; the holes stay until compacted. */
  for (guint i = 0; i < 40; i += 3)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "k%u" : "a rather long member name %u", i);
      AguiJsonValue removed = AGUI_JSON_VALUE_INIT;
      int slot = _agui_json_object_find (object, name);

      g_assert_cmpint (slot, ==, (int) i);
      _agui_json_object_remove_slot (object, slot, &removed);
      g_assert_cmpint (removed.kind, ==, AGUI_JSON_DOC_INT);
      g_assert_cmpint (removed.u.integer, ==, i);
      g_assert_cmpint (_agui_json_object_find (object, name), ==, -1);
      g_assert_null (_agui_json_object_slot_name (object, slot));
      json_object_remove_member (reference, name);
      assert_prints_as (&document, node);
    }
  g_assert_cmpuint (_agui_json_object_get_size (object), ==, 26);
  g_assert_cmpuint (_agui_json_object_get_n_slots (object), ==, 40);

  /* Too few holes for a large object to be worth moving yet. */
  _agui_json_object_compact (object);
  g_assert_cmpuint (_agui_json_object_get_n_slots (object), ==, 40);

  for (guint i = 1; i < 40; i += 3)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "k%u" : "a rather long member name %u", i);
      AguiJsonValue removed = AGUI_JSON_VALUE_INIT;

      _agui_json_object_remove_slot (object, _agui_json_object_find (object, name), &removed);
      _agui_json_value_clear (&removed);
      json_object_remove_member (reference, name);
    }
  _agui_json_object_compact (object);
  g_assert_cmpuint (_agui_json_object_get_n_slots (object), ==, 13);
  assert_prints_as (&document, node);

  /* Removed, then added again: at the end, as json-glib puts it. */
  for (guint i = 0; i < 40; i += 3)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "k%u" : "a rather long member name %u", i);
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_string (&value, name, strlen (name));
      _agui_json_object_set (object, name, &value);
      json_object_set_string_member (reference, name, name);
    }
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf (i % 2 ? "k%u" : "a rather long member name %u", i);

      g_assert_cmpint (_agui_json_object_find (object, name) >= 0, ==, i % 3 != 1);
    }
  assert_prints_as (&document, node);

  _agui_json_value_clear (&document);
}

static void
test_remove_then_add (void)
{
  static const char * const patches[] = {
    "[{\"op\":\"remove\",\"path\":\"/b\"},{\"op\":\"add\",\"path\":\"/b\",\"value\":20}]",
    "[{\"op\":\"add\",\"path\":\"/a\",\"value\":10}]",
    "[{\"op\":\"remove\",\"path\":\"/a\"}]",
    "[{\"op\":\"add\",\"path\":\"/a\",\"value\":{\"x\":1}},{\"op\":\"move\",\"from\":\"/c\",\"path\":\"/c\"}]",
    "[{\"op\":\"move\",\"from\":\"/c\",\"path\":\"/d\"},{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/c\"}]",
  };
  g_autoptr(JsonNode) node = parse ("{\"a\":1,\"b\":2,\"c\":3}");
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;

  g_test_summary ("A member removed and added again goes to the end, in one patch or two, "
                  "as in json-glib");

  _agui_json_value_set_node (&document, node);
  for (guint i = 0; i < G_N_ELEMENTS (patches); i++)
    {
      g_autoptr(JsonNode) patch = parse (patches[i]);
      g_autoptr(GError) error = NULL;

      g_assert_true (agui_test_apply_patch (&document, NULL, json_node_get_array (patch), &error));
      g_assert_no_error (error);
    }

  {
    g_autofree char *text = _agui_json_value_to_string (&document, FALSE, NULL);

    g_assert_cmpstr (text, ==, "{\"b\":20,\"a\":{\"x\":1},\"d\":3,\"c\":{\"x\":1}}");
  }

  _agui_json_value_clear (&document);
}

static void
test_equal (void)
{
  static const struct { const char *a; const char *b; gboolean equal; } cases[] = {
    { "1", "1.0", TRUE },
    { "9007199254740993", "9007199254740992.0", FALSE },
    { "9007199254740992", "9007199254740992.0", TRUE },
    { "-9223372036854775808", "-9223372036854775808.0", TRUE },
    { "9223372036854775807", "9223372036854775808.0", FALSE },
    { "0", "-0.0", TRUE },
    { "0.1", "0.1", TRUE },
    { "1", "\"1\"", FALSE },
    { "1", "true", FALSE },
    { "null", "{}", FALSE },
    { "\"short\"", "\"short\"", TRUE },
    { "\"exactly 14 ch.\"", "\"exactly 14 ch!\"", FALSE },
    { "\"fifteen bytes!!\"", "\"fifteen bytes!!\"", TRUE },
    { "\"fifteen bytes!!\"", "\"fifteen bytes!?\"", FALSE },
    { "{\"a\":1,\"b\":[1,2]}", "{\"b\":[1,2.0],\"a\":1}", TRUE },
    { "{\"a\":1}", "{\"a\":1,\"b\":2}", FALSE },
    { "[1,2]", "[2,1]", FALSE },
    { "[]", "{}", FALSE },
  };

  g_test_summary ("Deep equality is _agui_json_node_equal ()'s, across every representation");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) a = parse (cases[i].a);
      g_autoptr(JsonNode) b = parse (cases[i].b);
      AguiJsonValue doc_a = AGUI_JSON_VALUE_INIT;
      AguiJsonValue doc_b = AGUI_JSON_VALUE_INIT;

      g_test_message ("%s = %s", cases[i].a, cases[i].b);
      g_assert_cmpint (_agui_json_node_equal (a, b), ==, cases[i].equal);
      _agui_json_value_set_node (&doc_a, a);
      _agui_json_value_set_node (&doc_b, b);
      g_assert_cmpint (_agui_json_value_equal (&doc_a, &doc_b), ==, cases[i].equal);
      g_assert_cmpint (_agui_json_value_equal (&doc_b, &doc_a), ==, cases[i].equal);
      g_assert_true (_agui_json_value_equal (&doc_a, &doc_a));
      _agui_json_value_clear (&doc_a);
      _agui_json_value_clear (&doc_b);
    }

  /* A hole is no member: an object that lost one equals one that never had it. */
  {
    g_autoptr(JsonNode) big = parse ("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10}");
    g_autoptr(JsonNode) small = parse ("{\"j\":10,\"a\":1,\"b\":2,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9}");
    AguiJsonValue doc_big = AGUI_JSON_VALUE_INIT;
    AguiJsonValue doc_small = AGUI_JSON_VALUE_INIT;
    AguiJsonValue removed = AGUI_JSON_VALUE_INIT;

    _agui_json_value_set_node (&doc_big, big);
    _agui_json_value_set_node (&doc_small, small);
    g_assert_false (_agui_json_value_equal (&doc_big, &doc_small));
    _agui_json_object_remove_slot (doc_big.u.object, _agui_json_object_find (doc_big.u.object, "c"), &removed);
    g_assert_true (_agui_json_value_equal (&doc_big, &doc_small));
    g_assert_true (_agui_json_value_equal (&doc_small, &doc_big));
    _agui_json_value_clear (&removed);
    _agui_json_value_clear (&doc_big);
    _agui_json_value_clear (&doc_small);
  }
}

static void
test_numbers (void)
{
  static const char * const texts[] = {
    "0", "-1", "9223372036854775807", "-9223372036854775808", "0.1", "-0.0", "1.0", "1e300",
    "5e-324", "123456789.125", "1.7976931348623157e308", "2.5E-3", "100000000000000000000.0",
  };

  g_test_summary ("Integers stay 64-bit integers and doubles doubles, printed as json-glib "
                  "prints them, through the tree and back");

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(JsonNode) node = parse (texts[i]);
      g_autoptr(JsonNode) back = NULL;
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;
      AguiJsonValue copy = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_node (&value, node);
      g_assert_cmpint (value.kind, ==, json_node_get_value_type (node) == G_TYPE_INT64
                                       ? AGUI_JSON_DOC_INT : AGUI_JSON_DOC_DOUBLE);
      assert_prints_as (&value, node);

      back = _agui_json_value_to_node (&value);
      g_assert_cmpint (json_node_get_value_type (back), ==, json_node_get_value_type (node));
      if (json_node_get_value_type (node) == G_TYPE_INT64)
        g_assert_cmpint (json_node_get_int (back), ==, json_node_get_int (node));
      else
        g_assert_true (memcmp (&(double) { json_node_get_double (back) },
                               &(double) { json_node_get_double (node) }, sizeof (double)) == 0);

      _agui_json_value_copy (&copy, &value);
      assert_prints_as (&copy, node);
      _agui_json_value_clear (&copy);
      _agui_json_value_clear (&value);
    }

  /* Not finite: no JSON form, the printer's own error. */
  {
    g_autoptr(JsonNode) node = json_node_init_double (json_node_alloc (), 1.0 / 0.0);
    AguiJsonValue value = AGUI_JSON_VALUE_INIT;

    _agui_json_value_set_node (&value, node);
    assert_prints_as (&value, node);
    g_assert_null (_agui_json_value_to_string (&value, FALSE, NULL));
  }
}

static void
test_strings (void)
{
  static const char * const strings[] = {
    "", "a", "new", "exactly 14 ch.", "fifteen bytes!!", "a string long enough for the heap",
    "quote \" backslash \\ slash /", "\x01\x1f\x7f control", "\b\f\n\r\t",
    "\xe2\x80\xa8 line separator", "caf\xc3\xa9 \xf0\x9f\x98\x80", "bad \xff\xfe bytes", "\xc3",
  };
  g_autoptr(JsonNode) node = _agui_json_node_new_object (json_object_new ());
  g_autoptr(JsonNode) back = NULL;
  JsonArray *array = json_array_new ();
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  g_test_summary ("Strings and names, short, long, escaped or not even UTF-8, print as "
                  "_agui_json_to_string () prints them");

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      json_array_add_string_element (array, strings[i]);
      json_object_set_string_member (json_node_get_object (node), strings[i], strings[i]);
    }
  json_object_set_array_member (json_node_get_object (node), "all", array);

  _agui_json_value_set_node (&value, node);
  assert_prints_as (&value, node);

  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    {
      int slot = _agui_json_object_find (value.u.object, strings[i]);
      const AguiJsonValue *member;

      g_assert_cmpint (slot, ==, (int) i);
      g_assert_cmpstr (_agui_json_object_slot_name (value.u.object, slot), ==, strings[i]);
      member = _agui_json_object_slot_value (value.u.object, slot);
      g_assert_cmpint (member->kind, ==, strlen (strings[i]) <= 14 ? AGUI_JSON_DOC_SHORT_STRING
                                                                   : AGUI_JSON_DOC_STRING);
      g_assert_cmpstr (_agui_json_value_get_string (member), ==, strings[i]);
    }

  back = _agui_json_value_to_node (&value);
  g_assert_true (_agui_json_node_equal (back, node));
  _agui_json_value_clear (&value);
}

static void
test_depth (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  AguiJsonValue value = AGUI_JSON_VALUE_INIT;

  g_test_summary ("A patch that would nest the document past what a snapshot can carry is "
                  "refused, the document unchanged");

  for (guint i = 0; i < 300; i++)
    g_string_append (text, "[");
  for (guint i = 0; i < 300; i++)
    g_string_append (text, "]");
  node = parse (text->str);
  _agui_json_value_set_node (&value, node);
  g_assert_true (_agui_json_value_equal (&value, &value));
  before = _agui_json_value_to_string (&value, FALSE, NULL);

  /* 300 levels more, 250 levels down: past the 511 a snapshot carries */
  g_string_truncate (text, 0);
  g_string_append (text, "[{\"op\":\"add\",\"path\":\"");
  for (guint i = 0; i < 250; i++)
    g_string_append (text, "/0");
  g_string_append (text, "\",\"value\":");
  for (guint i = 0; i < 300; i++)
    g_string_append (text, "[");
  for (guint i = 0; i < 300; i++)
    g_string_append (text, "]");
  g_string_append (text, "}]");
  patch = parse (text->str);

  g_assert_false (agui_test_apply_patch (&value, NULL, json_node_get_array (patch), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
  g_assert_nonnull (strstr (error->message, "nested deeper than 511 levels"));
  after = _agui_json_value_to_string (&value, FALSE, NULL);
  g_assert_cmpstr (after, ==, before);
  assert_prints_as (&value, node);

  _agui_json_value_clear (&value);
}

/* An index biased towards the ends of an array of @length, where the
 * elements move into the room kept before or after them. */
static guint
end_index (GRand *rand,
           guint  length)
{
  guint near = g_rand_int_range (rand, 0, 3);

  if (length == 0)
    return 0;
  if (g_rand_boolean (rand))
    return MIN (near, length - 1);
  return length - 1 - MIN (near, length - 1);
}

/* {"a": @model} as compact JSON. */
static char *
model_print (GArray *model)
{
  GString *text = g_string_new ("{\"a\":[");

  for (guint i = 0; i < model->len; i++)
    g_string_append_printf (text, "%s%u", i > 0 ? "," : "", g_array_index (model, guint, i));
  g_string_append (text, "]}");

  return g_string_free (text, FALSE);
}

static void
test_array_ends (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (24);
  g_autoptr(JsonNode) node = parse ("{\"a\":[]}");
  g_autoptr(GArray) model = g_array_new (FALSE, FALSE, sizeof (guint));
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  guint length = 0;
  guint next = 0;

  g_test_summary ("Inserts, removals and moves at both ends of an array, some rolled back by a "
                  "failing test, give what a plain array gives");

  _agui_json_value_set_node (&document, node);
  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GString) text = g_string_new ("[");
      g_autoptr(JsonNode) patch = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) planned_model = g_array_copy (model);
      g_autofree char *expected = NULL;
      g_autofree char *actual = NULL;
      guint n_ops = g_rand_int_range (rand, 1, 12);
      guint planned = length;
      gboolean fail = g_rand_int_range (rand, 0, 5) == 0;
      gboolean applied;

      for (guint i = 0; i < n_ops; i++)
        {
          guint kind = g_rand_int_range (rand, 0, planned > 0 ? 4 : 1);

          /* kept short, so that its ends are what moves */
          if (planned > 24 && (kind == 0 || kind == 3))
            kind = 1;

          if (i > 0)
            g_string_append_c (text, ',');
          switch (kind)
            {
            case 0:
              {
                guint at = g_rand_boolean (rand) ? 0 : planned;

                g_string_append_printf (text, "{\"op\":\"add\",\"path\":\"/a/%u\",\"value\":%u}", at, next);
                g_array_insert_val (planned_model, at, next);
                next++;
                planned++;
              }
              break;
            case 1:
              {
                guint at = end_index (rand, planned);

                g_string_append_printf (text, "{\"op\":\"remove\",\"path\":\"/a/%u\"}", at);
                g_array_remove_index (planned_model, at);
                planned--;
              }
              break;
            case 2:
              {
                guint from = end_index (rand, planned);
                gboolean back = g_rand_boolean (rand);
                guint value = g_array_index (planned_model, guint, from);

                g_string_append_printf (text, "{\"op\":\"move\",\"from\":\"/a/%u\",\"path\":\"/a/%s\"}",
                                        from, back ? "-" : "0");
                g_array_remove_index (planned_model, from);
                g_array_insert_val (planned_model, back ? planned_model->len : 0, value);
              }
              break;
            default:
              {
                guint from = end_index (rand, planned);
                guint to = end_index (rand, planned);
                guint value = g_array_index (planned_model, guint, from);

                g_string_append_printf (text, "{\"op\":\"copy\",\"from\":\"/a/%u\",\"path\":\"/a/%u\"}",
                                        from, to);
                g_array_insert_val (planned_model, to, value);
                planned++;
              }
              break;
            }
        }
      if (fail)
        g_string_append (text, ",{\"op\":\"test\",\"path\":\"/a\",\"value\":null}");
      g_string_append_c (text, ']');
      patch = parse (text->str);

      applied = agui_test_apply_patch (&document, NULL, json_node_get_array (patch), &error);
      g_assert_true (applied != fail);
      if (applied)
        {
          g_array_set_size (model, 0);
          g_array_append_vals (model, planned_model->data, planned_model->len);
        }
      expected = model_print (model);
      actual = _agui_json_value_to_string (&document, FALSE, NULL);
      g_assert_cmpstr (actual, ==, expected);
      length = model->len;
    }
  g_assert_cmpuint (length, >, 0);

  _agui_json_value_clear (&document);
}

/* Random patches on one document, applied whole and one operation at a
 * time: the same outcome and text after every one (the whole patch holds
 * inserts back as runs and rolls back with its log, one at a time does
 * neither), and a failed patch leaves the text as it was. Names come from a pool
 * large enough to cross the index threshold and small enough to meet
 * again after removal. */
static char *
random_pointer (GRand   *rand,
                gboolean existing_array_index)
{
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
    case 1:
    case 2:
      return g_strdup_printf ("/o/m%d", g_rand_int_range (rand, 0, 24));
    case 3:
      return g_strdup_printf ("/o/m%d/n", g_rand_int_range (rand, 0, 24));
    case 4:
      return g_strdup_printf ("/a/%d", g_rand_int_range (rand, 0, existing_array_index ? 6 : 8));
    default:
      return g_strdup (g_rand_boolean (rand) ? "/a/-" : "/o/long member name that is on the heap");
    }
}

static void
add_random_value (JsonBuilder *builder,
                  GRand       *rand)
{
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      json_builder_add_int_value (builder, g_rand_int_range (rand, -5, 5));
      break;
    case 1:
      json_builder_add_double_value (builder, g_rand_int_range (rand, -5, 5) / 2.0);
      break;
    case 2:
      json_builder_add_string_value (builder, g_rand_boolean (rand) ? "new" : "a string longer than fourteen");
      break;
    case 3:
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "n");
      json_builder_add_int_value (builder, g_rand_int_range (rand, 0, 3));
      json_builder_end_object (builder);
      break;
    case 4:
      json_builder_begin_array (builder);
      json_builder_add_boolean_value (builder, g_rand_boolean (rand));
      json_builder_end_array (builder);
      break;
    default:
      json_builder_add_null_value (builder);
      break;
    }
}

static void
test_random_patches (void)
{
  static const char * const ops[] = { "add", "add", "add", "remove", "remove", "replace", "move", "copy", "test" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (13);
  g_autoptr(JsonNode) node = parse ("{\"o\":{},\"a\":[]}");
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  guint applied_count = 0;

  g_test_summary ("Thousands of random patches give the same documents applied whole or one "
                  "operation at a time, member order, holes and rollbacks included");

  _agui_json_value_set_node (&document, node);

  for (guint round = 0; round < 2500; round++)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) patch = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *before = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *actual = NULL;
      AguiJsonValue stepwise = AGUI_JSON_VALUE_INIT;
      guint n_ops = g_rand_int_range (rand, 1, 6);
      gboolean applied, stepwise_applied = TRUE;

      json_builder_begin_array (builder);
      for (guint i = 0; i < n_ops; i++)
        {
          const char *op = ops[g_rand_int_range (rand, 0, G_N_ELEMENTS (ops))];
          g_autofree char *path = random_pointer (rand, FALSE);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "op");
          json_builder_add_string_value (builder, op);
          json_builder_set_member_name (builder, "path");
          json_builder_add_string_value (builder, path);
          if (g_str_equal (op, "move") || g_str_equal (op, "copy"))
            {
              g_autofree char *from = random_pointer (rand, TRUE);

              json_builder_set_member_name (builder, "from");
              json_builder_add_string_value (builder, from);
            }
          else if (!g_str_equal (op, "remove"))
            {
              json_builder_set_member_name (builder, "value");
              add_random_value (builder, rand);
            }
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      patch = json_builder_get_root (builder);

      _agui_json_value_copy (&stepwise, &document);
      before = _agui_json_value_to_string (&document, FALSE, NULL);
      applied = agui_test_apply_patch (&document, NULL, json_node_get_array (patch), &error);
      applied_count += applied;

      for (guint i = 0; i < n_ops && stepwise_applied; i++)
        {
          g_autoptr(JsonArray) one = json_array_new ();

          json_array_add_element (one, json_node_copy (json_array_get_element (json_node_get_array (patch), i)));
          stepwise_applied = agui_test_apply_patch (&stepwise, NULL, one, NULL);
        }
      g_assert_cmpint (stepwise_applied, ==, applied);
      if (applied)
        g_assert_no_error (error);
      else
        g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
      expected = applied ? _agui_json_value_to_string (&stepwise, FALSE, NULL) : g_strdup (before);
      actual = _agui_json_value_to_string (&document, FALSE, NULL);
      _agui_json_value_clear (&stepwise);
      if (g_strcmp0 (actual, expected) != 0)
        {
          g_autofree char *patch_text = _agui_json_to_string (patch, FALSE, NULL);

          g_error ("round %u, after %s: expected %s, got %s", round, patch_text, expected, actual);
        }

      /* Now and then the whole state goes back to a small one. */
      if (round % 1000 == 999)
        {
          g_autoptr(JsonNode) reset = parse ("[{\"op\":\"replace\",\"path\":\"/a\",\"value\":[]}]");

          g_assert_true (agui_test_apply_patch (&document, NULL, json_node_get_array (reset), NULL));
        }
    }

  /* Both outcomes were exercised, often. */
  g_assert_cmpuint (applied_count, >, 250);
  g_assert_cmpuint (applied_count, <, 2250);

  _agui_json_value_clear (&document);
}

static void
test_large_object (void)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object = _agui_json_value_set_object (&document, 0);
  const guint size = 150000;

  g_test_summary ("An object large enough for its index to take huge pages finds, removes, "
                  "compacts and grows again like a small one");

  for (guint i = 0; i < size; i++)
    {
      g_autofree char *name = g_strdup_printf ("member %u", i);
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_int (&value, i);
      _agui_json_object_append (object, name, &value);
    }

  for (guint i = 0; i < size; i += 7)
    {
      g_autofree char *name = g_strdup_printf ("member %u", i);

      g_assert_cmpint (_agui_json_object_find (object, name), ==, (int) i);
    }
  g_assert_cmpint (_agui_json_object_find (object, "member 150000"), ==, -1);

  /* Two thirds go: enough holes for the object to be compacted. */
  for (guint i = 0; i < size; i++)
    {
      g_autofree char *name = g_strdup_printf ("member %u", i);
      AguiJsonValue removed = AGUI_JSON_VALUE_INIT;

      if (i % 3 == 0)
        continue;
      _agui_json_object_remove_slot (object, _agui_json_object_find (object, name), &removed);
      _agui_json_value_clear (&removed);
    }
  _agui_json_object_compact (object);
  g_assert_cmpuint (_agui_json_object_get_n_slots (object), ==, size / 3);
  g_assert_cmpuint (_agui_json_object_get_size (object), ==, size / 3);

  for (guint i = 0; i < size; i++)
    {
      g_autofree char *name = g_strdup_printf ("member %u", i);
      int slot = _agui_json_object_find (object, name);

      g_assert_cmpint (slot, ==, i % 3 == 0 ? (int) (i / 3) : -1);
      if (slot >= 0)
        g_assert_cmpint (_agui_json_object_slot_value (object, slot)->u.integer, ==, i);
    }

  _agui_json_value_clear (&document);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/json-doc/index-threshold", test_index_threshold);
  g_test_add_func ("/agui/json-doc/remove-then-add", test_remove_then_add);
  g_test_add_func ("/agui/json-doc/equal", test_equal);
  g_test_add_func ("/agui/json-doc/numbers", test_numbers);
  g_test_add_func ("/agui/json-doc/strings", test_strings);
  g_test_add_func ("/agui/json-doc/depth", test_depth);
  g_test_add_func ("/agui/json-doc/array-ends", test_array_ends);
  g_test_add_func ("/agui/json-doc/random-patches", test_random_patches);
  g_test_add_func ("/agui/json-doc/large-object", test_large_object);

  return g_test_run ();
}
