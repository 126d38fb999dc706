/* test-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <math.h>
#include <string.h>

#include "agui.h"
#include "agui-json-private.h"

static char *
nested (guint       depth,
        const char *open,
        const char *close)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, open);
  for (guint i = 0; i < depth && close != NULL; i++)
    g_string_append (text, close);

  return g_string_free (text, FALSE);
}

static void
assert_refused (const char *text,
                const char *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = _agui_json_parse (text, -1, &error);

  g_assert_null (node);
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  if (strstr (error->message, message_part) == NULL)
    g_error ("“%s” does not say “%s”", error->message, message_part);
}

static void
test_parse_depth (void)
{
  g_autofree char *hostile = nested (100000, "[", NULL);
  g_autofree char *deepest = nested (AGUI_JSON_MAX_DEPTH, "[", "]");
  g_autofree char *too_deep = nested (AGUI_JSON_MAX_DEPTH + 1, "{\"a\":", "}");
  g_autofree char *in_string = g_strdup_printf ("[\"%s\"]", hostile);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) string = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A hundred thousand '[' are refused naming the limit; 512 levels parse; "
                  "brackets inside a string do not count");

  assert_refused (hostile, "nested deeper than 512 levels");
  assert_refused (too_deep, "nested deeper than 512 levels");

  node = _agui_json_parse (deepest, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));

  string = _agui_json_parse (in_string, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (string), 0), ==, hostile);
}

static void
test_parse_numbers (void)
{
  static const char * const refused[] = {
    "{\"a\": 1e999}",
    "[-1e999]",
    "[123456789012345678901234567890]",
    "[9223372036854775808]",
    "[-9223372036854775809]",
  };
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *array;

  g_test_summary ("Numbers json-glib would wrap or make infinite are refused; the edges are exact");

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(JsonNode) bad = NULL;
      g_autoptr(GError) bad_error = NULL;

      bad = _agui_json_parse (refused[i], -1, &bad_error);
      g_assert_null (bad);
      g_assert_error (bad_error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
      g_assert_true (strstr (bad_error->message, "does not fit in 64 bits") != NULL ||
                     strstr (bad_error->message, "too large for a double") != NULL);
    }

  node = _agui_json_parse ("[9223372036854775807, -9223372036854775808, 1.5e308, 1e-999, 0, -0.5]", -1, &error);
  g_assert_no_error (error);
  array = json_node_get_array (node);
  g_assert_cmpint (json_array_get_int_element (array, 0), ==, G_MAXINT64);
  g_assert_cmpint (json_array_get_int_element (array, 1), ==, G_MININT64);
  g_assert_cmpfloat (json_array_get_double_element (array, 2), ==, 1.5e308);
  g_assert_cmpfloat (json_array_get_double_element (array, 3), ==, 0.0);
}

static void
test_parse_strings (void)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  static const char raw_nul[] = "[\"a\0b\"]";

  g_test_summary ("\\u0000, a raw NUL and lone surrogates are refused; a surrogate pair is kept");

  assert_refused ("[\"a\\u0000b\"]", "\\u0000");
  assert_refused ("[\"\\ud83d and text\"]", "lone high surrogate");
  assert_refused ("[\"\\ude00\"]", "lone low surrogate");
  assert_refused ("[\"\\ud83d\\u0041\"]", "lone high surrogate");

  {
    g_autoptr(GError) nul_error = NULL;
    g_autoptr(JsonNode) nul = _agui_json_parse (raw_nul, sizeof raw_nul - 1, &nul_error);

    g_assert_null (nul);
    g_assert_nonnull (strstr (nul_error->message, "NUL byte"));
  }

  node = _agui_json_parse ("[\"\\ud83d\\ude00\", \"\\\\u0000\"]", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 0), ==, "😀");
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (node), 1), ==, "\\u0000");

  assert_refused ("", "line 1, column 1: expected a value, found the end of the text");
}

static void
test_parse_syntax_errors (void)
{
  static const struct { const char *text; const char *message; } refused[] = {
    { "", "line 1, column 1: expected a value, found the end of the text" },
    { " \n ", "line 2, column 2: expected a value, found the end of the text" },
    { "{\"a\":1,}", "line 1, column 8: expected a member name in double quotes, found '}'" },
    { "{\"a\":\"b\" \"c\":1}", "line 1, column 10: expected ',' or '}' after an object member, found '\"'" },
    { "{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3: expected ',' or '}' after an object member, found '\"'" },
    { "[1,2", "line 1, column 5: expected ',' or ']' after an array element, found the end of the text" },
    { "{'a':1}", "line 1, column 2: expected a member name in double quotes or '}', found a single quote" },
    { "{a:1}", "line 1, column 2: expected a member name in double quotes or '}', found 'a'" },
    { "{\"a\" 1}", "line 1, column 6: expected ':' after a member name, found '1'" },
    { "[01]", "line 1, column 3: expected ',' or ']' after an array element, found '1'" },
    { "[1] [2]", "line 1, column 5: expected the end of the text after the value, found '['" },
    { "[tru]", "line 1, column 2: expected a value, found 'tru'" },
    { "[nan]", "line 1, column 2: expected a value, found 'nan'" },
    { "/* c */ [1]", "line 1, column 1: expected a value, found '/'" },
    { "[\"é\", é]", "line 1, column 7: expected a value, found 'é'" },
    { "[-]", "line 1, column 3: expected a digit after '-', found ']'" },
    { "[1.]", "line 1, column 4: expected a digit after the decimal point, found ']'" },
    { "[1e+]", "line 1, column 5: expected a digit in the exponent, found ']'" },
    { "[\"a\\x\"]", "line 1, column 4: a backslash in a string must be followed by one of "
                       "\" \\ / b f n r t u, not 'x'" },
    { "[\"\\u12\"]", "line 1, column 3: \\u must be followed by four hexadecimal digits" },
    { "[\"open]", "line 1, column 2: the string is not closed" },
    { "[\"é\xff\"]", "line 1, column 4: the text is not valid UTF-8 (byte 0xFF)" },
    { "\xEF\xBB\xBF\xEF\xBB\xBF[]", "line 1, column 1: expected a value, found U+FEFF" },
  };

  g_test_summary ("A text that is not JSON is refused saying where (line and column, in characters) "
                  "and what was expected and found");

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = _agui_json_parse (refused[i].text, -1, &error);

      g_assert_null (node);
      g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
      g_assert_cmpstr (error->message, ==, refused[i].message);
    }
}

static void
test_parse_strict (void)
{
  static const char * const accepted[] = {
    "\xEF\xBB\xBF{\"bom\":true}",
    " \t\r\n[1, -0, 0.5, 1E+2, 1e-2, \"\\/\\b\\f\\n\\r\\t\\u00e9\", true, false, null, {}, []] \n",
    "\"just a string\"",
    "42",
    /* json-glib 1.6 wrote U+001F raw into rows Tandem keeps */
    "[\"raw \x1f and \t\"]",
  };

  g_test_summary ("What RFC 8259 allows parses, a leading byte order mark and raw control "
                  "characters in strings included");

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = _agui_json_parse (accepted[i], -1, &error);

      g_assert_no_error (error);
      g_assert_nonnull (node);
    }
}

static char *
print (JsonNode *node,
       gboolean  pretty)
{
  g_autoptr(GError) error = NULL;
  char *text = _agui_json_to_string (node, pretty, &error);

  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));

  return text;
}

static void
test_print_like_json_glib (void)
{
  const char *document =
    "{\"a\":[1,2.5,0.1,-0.0,3.0,1e-7,{\"b\":\"x\\ty\\n/é😀\\\"\\\\\"}],"
    "\"c\":{},\"d\":[],\"e\":null,\"f\":true,\"g\":false,\"h\":{\"i\":[[]]}}";
  g_autoptr(JsonNode) node = json_from_string (document, NULL);

  g_test_summary ("Where json-glib writes valid JSON, the printer writes the same bytes");

  for (int pretty = 0; pretty <= 1; pretty++)
    {
      g_autofree char *ours = print (node, pretty);
      g_autofree char *theirs = json_to_string (node, pretty);

      g_assert_cmpstr (ours, ==, theirs);
    }
}

static void
test_print_hostile (void)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *parsed;

  g_test_summary ("Control characters are escaped, invalid UTF-8 replaced, an exponent "
                  "gets no '.0': the output parses back to the same values");

  json_array_add_string_element (array, "a\x1f" "b\x01\x7f");
  json_array_add_string_element (array, "bad \xed\xa0\xbd utf-8 \xff");
  json_array_add_double_element (array, 1e20);
  json_array_add_double_element (array, -1.5e-300);
  json_node_set_array (node, array);

  text = print (node, FALSE);
  g_assert_cmpstr (text, ==, "[\"a\\u001fb\\u0001\\u007f\",\"bad \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd utf-8 \xef\xbf\xbd\","
                             "1e+20,-1.5000000000000001e-300]");

  back = _agui_json_parse (text, -1, &error);
  g_assert_no_error (error);
  parsed = json_node_get_array (back);
  g_assert_cmpstr (json_array_get_string_element (parsed, 0), ==, "a\x1f" "b\x01\x7f");
  g_assert_cmpfloat (json_array_get_double_element (parsed, 2), ==, 1e20);
  g_assert_cmpfloat (json_array_get_double_element (parsed, 3), ==, -1.5e-300);
}

static void
test_print_refuses (void)
{
  g_autoptr(JsonNode) infinite = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) nan_node = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) deep = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *inner = json_array_new ();

  g_test_summary ("Infinity, NaN and a tree deeper than the limit are refused, not written");

  json_node_set_double (infinite, INFINITY);
  text = _agui_json_to_string (infinite, FALSE, &error);
  g_assert_null (text);
  g_assert_nonnull (strstr (error->message, "infinity"));
  g_clear_error (&error);

  json_node_set_double (nan_node, NAN);
  g_assert_null (_agui_json_to_string (nan_node, TRUE, &error));
  g_assert_nonnull (strstr (error->message, "NaN"));
  g_clear_error (&error);

  /* Built in memory (as a patch could build it), one level too deep. */
  json_node_take_array (deep, inner);
  for (guint i = 1; i < AGUI_JSON_MAX_DEPTH; i++)
    {
      JsonArray *next = json_array_new ();

      json_array_add_array_element (inner, next);
      inner = next;
    }
  g_free (_agui_json_to_string (deep, FALSE, &error));
  g_assert_no_error (error);

  json_array_add_array_element (inner, json_array_new ());
  g_assert_null (_agui_json_to_string (deep, FALSE, &error));
  g_assert_nonnull (strstr (error->message, "nested deeper than 512 levels"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/json/parse/depth", test_parse_depth);
  g_test_add_func ("/agui/json/parse/numbers", test_parse_numbers);
  g_test_add_func ("/agui/json/parse/strings", test_parse_strings);
  g_test_add_func ("/agui/json/parse/syntax-errors", test_parse_syntax_errors);
  g_test_add_func ("/agui/json/parse/strict", test_parse_strict);
  g_test_add_func ("/agui/json/print/like-json-glib", test_print_like_json_glib);
  g_test_add_func ("/agui/json/print/hostile", test_print_hostile);
  g_test_add_func ("/agui/json/print/refuses", test_print_refuses);

  return g_test_run ();
}
