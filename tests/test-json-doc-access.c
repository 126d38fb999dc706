/* test-json-doc-access.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reading text into the compact tree, and its getters and setters: the
 * same values, refusals and error words as the json-glib path they
 * replace, and bodies that print as json-glib printed them.
 */

#include "config.h"

#include "agui.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-private.h"

static const char * const readable[] = {
  "{}", "[]", "null", "true", "0", "-0", "1.5e300", "-9223372036854775808",
  "9223372036854775807", "\"\"", "\"caf\\u00e9 \\ud83d\\ude00 \\\" \\\\ \\n\"",
  "\xEF\xBB\xBF{\"bom\":1}",
  " {\"a\":[1,2.5,true,false,null,{\"b\":{}}],\"c\":\"x\",\"a\":\"again\"} ",
  "[[[[[[[[1]]]]]]]]",
};

static void
test_parse_same_values (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (readable); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = _agui_json_parse (readable[i], -1, &error);
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
      g_autofree char *from_node = NULL;
      g_autofree char *from_value = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (node);
      g_assert_true (_agui_json_doc_parse (readable[i], -1, &value, &error));
      g_assert_no_error (error);

      from_node = _agui_json_to_string (node, FALSE, NULL);
      from_value = _agui_json_value_to_string (&value, FALSE, NULL);
      g_assert_cmpstr (from_value, ==, from_node);
    }
}

static void
test_parse_refusals (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  const char *refused[] = {
    "", "   ", "{", "[1,]", "{\"a\" 1}", "nul", "01", "1.", "\"\\x\"", "[1] 2",
    "\"\\ud800\"", "\"a\\u0000b\"", "99999999999999999999", "1e999", "\xff",
    NULL,
  };

  for (guint i = 0; i < AGUI_JSON_MAX_DEPTH + 1; i++)
    g_string_append_c (deep, '[');
  refused[G_N_ELEMENTS (refused) - 1] = deep->str;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) node_error = NULL;
      g_autoptr(GError) value_error = NULL;
      g_autoptr(JsonNode) node = _agui_json_parse (refused[i], -1, &node_error);
      g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;

      g_assert_null (node);
      g_assert_nonnull (node_error);
      g_assert_false (_agui_json_doc_parse (refused[i], -1, &value, &value_error));
      g_assert_cmpint (value.kind, ==, AGUI_JSON_DOC_NULL);
      g_assert_error (value_error, node_error->domain, node_error->code);
      g_assert_cmpstr (value_error->message, ==, node_error->message);
      /* and without an error to fill */
      g_assert_false (_agui_json_doc_parse (refused[i], -1, &value, NULL));
    }
}

static void
test_getters (void)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  AguiJsonValue *array;
  gint64 integer = 0;

  g_assert_true (_agui_json_doc_parse ("{\"s\":\"x\",\"n\":3,\"d\":3.0,\"o\":{\"s\":\"y\"},\"a\":[1,\"z\"],\"null\":null}",
                                       -1, &value, NULL));

  g_assert_cmpstr (_agui_json_doc_get_string (&value, "s"), ==, "x");
  g_assert_cmpstr (_agui_json_doc_get_string (_agui_json_doc_get_object (&value, "o"), "s"), ==, "y");
  /* mistyped, absent, or not asked of an object: NULL, never a critical */
  g_assert_null (_agui_json_doc_get_string (&value, "n"));
  g_assert_null (_agui_json_doc_get_string (&value, "missing"));
  g_assert_null (_agui_json_doc_get_object (&value, "a"));
  g_assert_null (_agui_json_doc_get_array (&value, "o"));
  g_assert_null (_agui_json_doc_get_member (NULL, "s"));
  g_assert_null (_agui_json_doc_get_string (_agui_json_doc_get_member (&value, "s"), "s"));
  g_assert_nonnull (_agui_json_doc_get_member (&value, "null"));

  g_assert_true (_agui_json_doc_get_int (&value, "n", &integer));
  g_assert_cmpint (integer, ==, 3);
  /* 3.0 is a double, as json-glib kept it */
  g_assert_false (_agui_json_doc_get_int (&value, "d", &integer));

  array = _agui_json_doc_get_array (&value, "a");
  g_assert_cmpuint (_agui_json_doc_get_length (array), ==, 2);
  g_assert_true (_agui_json_value_is_string (_agui_json_doc_get_element (array, 1)));
  g_assert_cmpuint (_agui_json_doc_get_length (&value), ==, 0);
  g_assert_cmpuint (_agui_json_doc_get_length (NULL), ==, 0);
}

static void
test_setters_print_as_json_glib (void)
{
  g_auto(AguiJsonValue) value = AGUI_JSON_VALUE_INIT;
  g_autoptr(AguiJsonValue) copy = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *printed = NULL;
  g_autofree char *copied = NULL;
  AguiJsonDocObject *built = _agui_json_value_set_object (&value, 0);
  AguiJsonDocArray *list;
  JsonArray *json_list = json_array_new ();

  /* json-glib: a member set again keeps its first place */
  json_object_set_null_member (object, "content");
  json_object_set_string_member (object, "role", "assistant");
  json_object_set_string_member (object, "content", "caf\xc3\xa9 \"\n");
  json_object_set_boolean_member (object, "stream", TRUE);
  json_object_set_int_member (object, "n", -7);
  json_object_set_double_member (object, "temperature", 0.7);
  json_array_add_string_element (json_list, "x");
  json_array_add_object_element (json_list, json_object_new ());
  json_object_set_array_member (object, "list", json_list);
  json_object_set_object_member (object, "empty", json_object_new ());
  node = _agui_json_node_new_object (json_object_ref (object));
  expected = _agui_json_to_string (node, FALSE, NULL);

  _agui_json_doc_set_null (built, "content");
  _agui_json_doc_set_string (built, "role", "assistant");
  _agui_json_doc_set_string (built, "content", "caf\xc3\xa9 \"\n");
  _agui_json_doc_set_boolean (built, "stream", TRUE);
  _agui_json_doc_set_int (built, "n", -7);
  _agui_json_doc_set_double (built, "temperature", 0.7);
  list = _agui_json_doc_set_array (built, "list");
  _agui_json_doc_add_string (list, "x");
  _agui_json_doc_add_object (list);
  _agui_json_doc_set_object (built, "empty");
  printed = _agui_json_value_to_string (&value, FALSE, NULL);

  g_assert_cmpstr (printed, ==, expected);

  copy = _agui_json_doc_value_dup (&value);
  copied = _agui_json_value_to_string (copy, FALSE, NULL);
  g_assert_cmpstr (copied, ==, expected);
  g_assert_true (_agui_json_value_equal (copy, &value));
}

static void
test_merge_object (void)
{
  g_autoptr(AguiJsonValue) target = NULL;
  g_auto(AguiJsonValue) first = AGUI_JSON_VALUE_INIT;
  g_auto(AguiJsonValue) second = AGUI_JSON_VALUE_INIT;
  g_autofree char *taken = NULL;
  g_autofree char *merged = NULL;

  g_test_summary ("Merging metadata: the first object is taken whole, in its order; a later one's "
                  "members replace those there in their place and the new ones follow, as "
                  "json_object_set_member () has it; each source is left null");

  g_assert_true (_agui_json_doc_parse ("{\"model\":\"x\",\"n\":0,\"deep\":{\"a\":[1]}}", -1, &first, NULL));
  _agui_json_doc_merge_object (&target, &first);
  g_assert_cmpint (first.kind, ==, AGUI_JSON_DOC_NULL);
  taken = _agui_json_value_to_string (target, FALSE, NULL);
  g_assert_cmpstr (taken, ==, "{\"model\":\"x\",\"n\":0,\"deep\":{\"a\":[1]}}");

  g_assert_true (_agui_json_doc_parse ("{\"extra\":true,\"n\":1,\"deep\":null}", -1, &second, NULL));
  _agui_json_doc_merge_object (&target, &second);
  g_assert_cmpint (second.kind, ==, AGUI_JSON_DOC_NULL);
  merged = _agui_json_value_to_string (target, FALSE, NULL);
  g_assert_cmpstr (merged, ==, "{\"model\":\"x\",\"n\":1,\"deep\":null,\"extra\":true}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/agui/json-doc-access/parse-same-values", test_parse_same_values);
  g_test_add_func ("/agui/json-doc-access/parse-refusals", test_parse_refusals);
  g_test_add_func ("/agui/json-doc-access/getters", test_getters);
  g_test_add_func ("/agui/json-doc-access/setters-print-as-json-glib", test_setters_print_as_json_glib);
  g_test_add_func ("/agui/json-doc-access/merge-object", test_merge_object);

  return g_test_run ();
}
