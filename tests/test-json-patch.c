/* test-json-patch.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include "agui.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-test-patch.h"

/* A case applies @patch to @document; @expected is the resulting document,
 * or NULL when the patch must fail, in which case @message, if set, is
 * the exact error message. */
typedef struct
{
  const char *name;
  const char *document;
  const char *patch;
  const char *expected;
  const char *message;
} PatchCase;

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);

  return node;
}

/* json_node_copy() is shallow in json-glib 1.6, so a saved copy that must
 * not follow later changes goes through text. */
static JsonNode *
deep_copy (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, FALSE);

  return parse (text);
}

static void
assert_json_equal (JsonNode   *actual,
                   const char *expected_json)
{
  g_autoptr(JsonNode) expected = parse (expected_json);

  if (!_agui_json_node_equal (actual, expected))
    {
      g_autofree char *text = json_to_string (actual, FALSE);

      g_error ("expected %s, got %s", expected_json, text);
    }
}

/* Applies @patch to @document through the one engine, over the compact
 * tree: on success @document is replaced by the tree's node; on failure
 * the tree must print exactly as before, member order included, and
 * @document is left alone. */
static gboolean
patch_apply (JsonNode  **document,
             JsonArray  *patch,
             GError    **error)
{
  AguiJsonValue tree = AGUI_JSON_VALUE_INIT;
  g_autofree char *before = NULL;
  gboolean applied;

  _agui_json_value_set_node (&tree, *document);
  before = _agui_json_value_to_string (&tree, FALSE, NULL);
  applied = agui_test_apply_patch (&tree, NULL, patch, error);

  if (applied)
    {
      json_node_unref (*document);
      *document = _agui_json_value_to_node (&tree);
    }
  else
    {
      g_autofree char *after = _agui_json_value_to_string (&tree, FALSE, NULL);

      g_assert_cmpstr (after, ==, before);
    }

  _agui_json_value_clear (&tree);

  return applied;
}

static void
run_patch_case (gconstpointer data)
{
  const PatchCase *test_case = data;
  g_autoptr(JsonNode) document = parse (test_case->document);
  g_autoptr(JsonNode) patch = parse (test_case->patch);
  g_autoptr(JsonNode) saved = deep_copy (document);
  g_autoptr(GError) error = NULL;
  g_autofree char *saved_text = json_to_string (document, FALSE);
  JsonNode *original = document;
  gboolean ok;

  g_test_summary (test_case->name);

  ok = patch_apply (&document, json_node_get_array (patch), &error);

  if (test_case->expected != NULL)
    {
      g_assert_no_error (error);
      g_assert_true (ok);
      assert_json_equal (document, test_case->expected);
    }
  else
    {
      g_autofree char *text = NULL;

      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
      g_assert_false (ok);
      g_assert_true (document == original);
      g_assert_true (_agui_json_node_equal (document, saved));
      /* Member order too: the document is exactly as it was. */
      text = json_to_string (document, FALSE);
      g_assert_cmpstr (text, ==, saved_text);
      if (test_case->message != NULL)
        g_assert_cmpstr (error->message, ==, test_case->message);
    }
}

/* RFC 6902, Appendix A. */
static const PatchCase rfc6902_cases[] = {
  { "a1-add-object-member",
    "{\"foo\": \"bar\"}",
    "[{\"op\": \"add\", \"path\": \"/baz\", \"value\": \"qux\"}]",
    "{\"baz\": \"qux\", \"foo\": \"bar\"}" },
  { "a2-add-array-element",
    "{\"foo\": [\"bar\", \"baz\"]}",
    "[{\"op\": \"add\", \"path\": \"/foo/1\", \"value\": \"qux\"}]",
    "{\"foo\": [\"bar\", \"qux\", \"baz\"]}" },
  { "a3-remove-object-member",
    "{\"baz\": \"qux\", \"foo\": \"bar\"}",
    "[{\"op\": \"remove\", \"path\": \"/baz\"}]",
    "{\"foo\": \"bar\"}" },
  { "a4-remove-array-element",
    "{\"foo\": [\"bar\", \"qux\", \"baz\"]}",
    "[{\"op\": \"remove\", \"path\": \"/foo/1\"}]",
    "{\"foo\": [\"bar\", \"baz\"]}" },
  { "a5-replace-value",
    "{\"baz\": \"qux\", \"foo\": \"bar\"}",
    "[{\"op\": \"replace\", \"path\": \"/baz\", \"value\": \"boo\"}]",
    "{\"baz\": \"boo\", \"foo\": \"bar\"}" },
  { "a6-move-value",
    "{\"foo\": {\"bar\": \"baz\", \"waldo\": \"fred\"}, \"qux\": {\"corge\": \"grault\"}}",
    "[{\"op\": \"move\", \"from\": \"/foo/waldo\", \"path\": \"/qux/thud\"}]",
    "{\"foo\": {\"bar\": \"baz\"}, \"qux\": {\"corge\": \"grault\", \"thud\": \"fred\"}}" },
  { "a7-move-array-element",
    "{\"foo\": [\"all\", \"grass\", \"cows\", \"eat\"]}",
    "[{\"op\": \"move\", \"from\": \"/foo/1\", \"path\": \"/foo/3\"}]",
    "{\"foo\": [\"all\", \"cows\", \"eat\", \"grass\"]}" },
  { "a8-test-success",
    "{\"baz\": \"qux\", \"foo\": [\"a\", 2, \"c\"]}",
    "[{\"op\": \"test\", \"path\": \"/baz\", \"value\": \"qux\"},"
    " {\"op\": \"test\", \"path\": \"/foo/1\", \"value\": 2}]",
    "{\"baz\": \"qux\", \"foo\": [\"a\", 2, \"c\"]}" },
  { "a9-test-error",
    "{\"baz\": \"qux\"}",
    "[{\"op\": \"test\", \"path\": \"/baz\", \"value\": \"bar\"}]",
    NULL,
    "operation 0 (test /baz): the value differs from the expected one" },
  { "a10-add-nested-member-object",
    "{\"foo\": \"bar\"}",
    "[{\"op\": \"add\", \"path\": \"/child\", \"value\": {\"grandchild\": {}}}]",
    "{\"foo\": \"bar\", \"child\": {\"grandchild\": {}}}" },
  { "a11-ignore-unrecognized-elements",
    "{\"foo\": \"bar\"}",
    "[{\"op\": \"add\", \"path\": \"/baz\", \"value\": \"qux\", \"xyz\": 123}]",
    "{\"foo\": \"bar\", \"baz\": \"qux\"}" },
  { "a12-add-to-nonexistent-target",
    "{\"foo\": \"bar\"}",
    "[{\"op\": \"add\", \"path\": \"/baz/bat\", \"value\": \"qux\"}]",
    NULL,
    "operation 0 (add /baz/bat): no member 'baz' at the root" },
  /* The RFC gives no document. json-glib, like JSON.parse in the
   * reference, keeps the last of duplicate members, so this is a remove
   * of a member that does not exist, which fails. */
  { "a13-invalid-patch-document",
    "{\"foo\": \"bar\"}",
    "[{\"op\": \"add\", \"path\": \"/baz\", \"value\": \"qux\", \"op\": \"remove\"}]",
    NULL,
    "operation 0 (remove /baz): no member 'baz' at the root" },
  { "a14-escape-ordering",
    "{\"/\": 9, \"~1\": 10}",
    "[{\"op\": \"test\", \"path\": \"/~01\", \"value\": 10}]",
    "{\"/\": 9, \"~1\": 10}" },
  { "a15-compare-strings-and-numbers",
    "{\"/\": 9, \"~1\": 10}",
    "[{\"op\": \"test\", \"path\": \"/~01\", \"value\": \"10\"}]",
    NULL,
    "operation 0 (test /~01): the value differs from the expected one" },
  { "a16-add-array-value",
    "{\"foo\": [\"bar\"]}",
    "[{\"op\": \"add\", \"path\": \"/foo/-\", \"value\": [\"abc\", \"def\"]}]",
    "{\"foo\": [\"bar\", [\"abc\", \"def\"]]}" },
};

/* Behaviour beyond the RFC examples: AG-UI.md 12.3 and the API contract. */
static const PatchCase behaviour_cases[] = {
  { "add-overwrites-member",
    "{\"a\": 1, \"b\": 2}",
    "[{\"op\": \"add\", \"path\": \"/a\", \"value\": [3]}]",
    "{\"a\": [3], \"b\": 2}" },
  { "add-array-at-length-appends",
    "{\"a\": [1, 2]}",
    "[{\"op\": \"add\", \"path\": \"/a/2\", \"value\": 3}]",
    "{\"a\": [1, 2, 3]}" },
  { "add-array-at-zero",
    "{\"a\": [1, 2]}",
    "[{\"op\": \"add\", \"path\": \"/a/0\", \"value\": 0}]",
    "{\"a\": [0, 1, 2]}" },
  { "add-array-past-length-fails",
    "{\"a\": [1, 2]}",
    "[{\"op\": \"add\", \"path\": \"/a/3\", \"value\": 3}]",
    NULL,
    "operation 0 (add /a/3): index 3 is out of range at /a (length 2)" },
  { "add-dash-appends",
    "{\"a\": []}",
    "[{\"op\": \"add\", \"path\": \"/a/-\", \"value\": 1},"
    " {\"op\": \"add\", \"path\": \"/a/-\", \"value\": 2}]",
    "{\"a\": [1, 2]}" },
  { "add-dash-on-object-is-a-member",
    "{\"a\": {}}",
    "[{\"op\": \"add\", \"path\": \"/a/-\", \"value\": 1}]",
    "{\"a\": {\"-\": 1}}" },
  { "remove-dash-fails",
    "{\"a\": [1]}",
    "[{\"op\": \"remove\", \"path\": \"/a/-\"}]",
    NULL,
    "operation 0 (remove /a/-): '-' names no element of the array at /a" },
  { "replace-dash-fails",
    "{\"a\": [1]}",
    "[{\"op\": \"replace\", \"path\": \"/a/-\", \"value\": 2}]",
    NULL, NULL },
  { "test-dash-fails",
    "{\"a\": [1]}",
    "[{\"op\": \"test\", \"path\": \"/a/-\", \"value\": 1}]",
    NULL, NULL },
  { "dash-not-final-fails",
    "{\"a\": [{\"b\": 1}]}",
    "[{\"op\": \"add\", \"path\": \"/a/-/b\", \"value\": 2}]",
    NULL,
    "operation 0 (add /a/-/b): '-' names no element of the array at /a" },
  { "add-into-scalar-fails",
    "{\"a\": 1}",
    "[{\"op\": \"add\", \"path\": \"/a/b\", \"value\": 2}]",
    NULL,
    "operation 0 (add /a/b): /a is a number, not an object or array" },
  { "add-under-scalar-root-fails",
    "\"text\"",
    "[{\"op\": \"add\", \"path\": \"/a\", \"value\": 2}]",
    NULL,
    "operation 0 (add /a): the document is a string, not an object or array" },
  { "leading-zero-index-fails",
    "{\"a\": [0, 1, 2]}",
    "[{\"op\": \"replace\", \"path\": \"/a/01\", \"value\": 9}]",
    NULL,
    "operation 0 (replace /a/01): '01' is not an array index at /a" },
  { "leading-zero-add-fails",
    "{\"a\": [0, 1, 2]}",
    "[{\"op\": \"add\", \"path\": \"/a/00\", \"value\": 9}]",
    NULL, NULL },
  { "leading-zero-object-member-is-fine",
    "{\"01\": 1}",
    "[{\"op\": \"replace\", \"path\": \"/01\", \"value\": 2}]",
    "{\"01\": 2}" },
  { "non-digit-index-fails",
    "{\"a\": [0, 1, 2]}",
    "[{\"op\": \"remove\", \"path\": \"/a/1x\"}]",
    NULL, NULL },
  { "huge-index-fails",
    "{\"a\": [0]}",
    "[{\"op\": \"remove\", \"path\": \"/a/99999999999999999999999\"}]",
    NULL, NULL },
  { "remove-missing-member-fails",
    "{\"a\": {\"b\": 1}}",
    "[{\"op\": \"remove\", \"path\": \"/a/c\"}]",
    NULL,
    "operation 0 (remove /a/c): no member 'c' at /a" },
  { "remove-index-out-of-range-fails",
    "{\"a\": [1]}",
    "[{\"op\": \"remove\", \"path\": \"/a/1\"}]",
    NULL,
    "operation 0 (remove /a/1): index 1 is out of range at /a (length 1)" },
  { "replace-missing-member-fails",
    "{\"a\": {\"b\": 1}}",
    "[{\"op\": \"replace\", \"path\": \"/a/c\", \"value\": 2}]",
    NULL,
    "operation 0 (replace /a/c): no member 'c' at /a" },
  { "replace-array-element",
    "{\"a\": [1, 2, 3]}",
    "[{\"op\": \"replace\", \"path\": \"/a/1\", \"value\": {\"x\": null}}]",
    "{\"a\": [1, {\"x\": null}, 3]}" },
  { "add-null-value",
    "{}",
    "[{\"op\": \"add\", \"path\": \"/a\", \"value\": null}]",
    "{\"a\": null}" },
  { "remove-root-gives-null",
    "{\"a\": 1}",
    "[{\"op\": \"remove\", \"path\": \"\"}]",
    "null" },
  { "add-root-replaces-document",
    "{\"a\": 1}",
    "[{\"op\": \"add\", \"path\": \"\", \"value\": [1, 2]}]",
    "[1, 2]" },
  { "replace-root-replaces-document",
    "[1]",
    "[{\"op\": \"replace\", \"path\": \"\", \"value\": {\"b\": 2}}]",
    "{\"b\": 2}" },
  { "move-to-root",
    "{\"a\": {\"b\": 1}, \"c\": 2}",
    "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"\"}]",
    "{\"b\": 1}" },
  { "copy-to-root",
    "{\"a\": {\"b\": 1}, \"c\": 2}",
    "[{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"\"}]",
    "{\"b\": 1}" },
  { "copy-root-into-member",
    "{\"a\": 1}",
    "[{\"op\": \"copy\", \"from\": \"\", \"path\": \"/b\"}]",
    "{\"a\": 1, \"b\": {\"a\": 1}}" },
  { "root-replaced-then-patched",
    "{\"a\": 1}",
    "[{\"op\": \"replace\", \"path\": \"\", \"value\": {\"x\": []}},"
    " {\"op\": \"add\", \"path\": \"/x/-\", \"value\": 1}]",
    "{\"x\": [1]}" },
  { "move-into-own-child-fails",
    "{\"a\": {\"b\": {}}}",
    "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/a/b/c\"}]",
    NULL,
    "operation 0 (move /a/b/c from /a): cannot move a value into its own child" },
  { "move-root-into-child-fails",
    "{\"a\": 1}",
    "[{\"op\": \"move\", \"from\": \"\", \"path\": \"/b\"}]",
    NULL, NULL },
  { "move-to-itself-is-a-no-op",
    "{\"a\": {\"b\": 1}, \"c\": 2}",
    "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/a\"}]",
    "{\"a\": {\"b\": 1}, \"c\": 2}" },
  { "move-to-sibling-with-common-prefix",
    "{\"a\": 1}",
    "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/ab\"}]",
    "{\"ab\": 1}" },
  { "move-child-onto-parent",
    "{\"a\": {\"b\": [1]}}",
    "[{\"op\": \"move\", \"from\": \"/a/b\", \"path\": \"/a\"}]",
    "{\"a\": [1]}" },
  { "move-missing-from-fails",
    "{\"a\": 1}",
    "[{\"op\": \"move\", \"from\": \"/x\", \"path\": \"/y\"}]",
    NULL,
    "operation 0 (move /y from /x): no member 'x' at the root" },
  { "move-missing-to-itself-fails",
    "{\"a\": 1}",
    "[{\"op\": \"move\", \"from\": \"/x\", \"path\": \"/x\"}]",
    NULL, NULL },
  { "move-to-missing-parent-fails",
    "{\"a\": 1}",
    "[{\"op\": \"move\", \"from\": \"/a\", \"path\": \"/x/y\"}]",
    NULL, NULL },
  { "copy-missing-from-fails",
    "{\"a\": 1}",
    "[{\"op\": \"copy\", \"from\": \"/x\", \"path\": \"/y\"}]",
    NULL,
    "operation 0 (copy /y from /x): no member 'x' at the root" },
  { "copy-is-not-aliased",
    "{\"a\": {\"n\": 1}}",
    "[{\"op\": \"copy\", \"from\": \"/a\", \"path\": \"/b\"},"
    " {\"op\": \"replace\", \"path\": \"/b/n\", \"value\": 2}]",
    "{\"a\": {\"n\": 1}, \"b\": {\"n\": 2}}" },
  { "added-value-is-patchable",
    "{}",
    "[{\"op\": \"add\", \"path\": \"/a\", \"value\": {\"list\": []}},"
    " {\"op\": \"add\", \"path\": \"/a/list/0\", \"value\": 1},"
    " {\"op\": \"add\", \"path\": \"/a/list/0\", \"value\": 0}]",
    "{\"a\": {\"list\": [0, 1]}}" },
  { "test-numbers-int-and-double",
    "{\"a\": 1, \"b\": 2.0}",
    "[{\"op\": \"test\", \"path\": \"/a\", \"value\": 1.0},"
    " {\"op\": \"test\", \"path\": \"/b\", \"value\": 2}]",
    "{\"a\": 1, \"b\": 2.0}" },
  { "test-object-member-order-irrelevant",
    "{\"o\": {\"x\": 1, \"y\": [true, null, \"s\"]}}",
    "[{\"op\": \"test\", \"path\": \"/o\", \"value\": {\"y\": [true, null, \"s\"], \"x\": 1.0}}]",
    "{\"o\": {\"x\": 1, \"y\": [true, null, \"s\"]}}" },
  { "test-whole-document",
    "{\"a\": [1]}",
    "[{\"op\": \"test\", \"path\": \"\", \"value\": {\"a\": [1]}}]",
    "{\"a\": [1]}" },
  { "test-array-order-matters",
    "{\"a\": [1, 2]}",
    "[{\"op\": \"test\", \"path\": \"/a\", \"value\": [2, 1]}]",
    NULL, NULL },
  { "test-missing-path-fails",
    "{\"a\": 1}",
    "[{\"op\": \"test\", \"path\": \"/b\", \"value\": null}]",
    NULL, NULL },
  { "test-mismatch-fails-whole-patch",
    "{\"version\": 1, \"status\": \"draft\"}",
    "[{\"op\": \"replace\", \"path\": \"/status\", \"value\": \"review\"},"
    " {\"op\": \"test\", \"path\": \"/version\", \"value\": 2}]",
    NULL,
    "operation 1 (test /version): the value differs from the expected one" },
  { "escapes",
    "{\"a/b\": {\"m~n\": 1}}",
    "[{\"op\": \"replace\", \"path\": \"/a~1b/m~0n\", \"value\": 2}]",
    "{\"a/b\": {\"m~n\": 2}}" },
  { "empty-patch",
    "{\"a\": 1}",
    "[]",
    "{\"a\": 1}" },
  { "unknown-op-fails",
    "{\"a\": 1}",
    "[{\"op\": \"frobnicate\", \"path\": \"/a\"}]",
    NULL,
    "operation 0 (frobnicate /a): unknown op 'frobnicate'" },
  { "missing-op-fails",
    "{\"a\": 1}",
    "[{\"path\": \"/a\"}]",
    NULL,
    "operation 0: missing string member 'op'" },
  { "operation-not-an-object-fails",
    "{\"a\": 1}",
    "[\"add\"]",
    NULL,
    "operation 0: not an object" },
  { "missing-path-fails",
    "{\"a\": 1}",
    "[{\"op\": \"add\", \"value\": 1}]",
    NULL,
    "operation 0 (add): missing string member 'path'" },
  { "non-string-path-fails",
    "{\"a\": 1}",
    "[{\"op\": \"remove\", \"path\": 1}]",
    NULL, NULL },
  { "missing-value-fails",
    "{\"a\": 1}",
    "[{\"op\": \"replace\", \"path\": \"/a\"}]",
    NULL,
    "operation 0 (replace /a): missing member 'value'" },
  { "missing-test-value-fails",
    "{\"a\": 1}",
    "[{\"op\": \"test\", \"path\": \"/a\"}]",
    NULL, NULL },
  { "missing-from-fails",
    "{\"a\": 1}",
    "[{\"op\": \"copy\", \"path\": \"/b\"}]",
    NULL,
    "operation 0 (copy /b): missing string member 'from'" },
  { "pointer-without-slash-fails",
    "{\"count\": 1}",
    "[{\"op\": \"replace\", \"path\": \"count\", \"value\": 2}]",
    NULL,
    "operation 0 (replace count): 'count' is not a JSON pointer" },
  { "pointer-bad-escape-fails",
    "{\"a~2\": 1}",
    "[{\"op\": \"remove\", \"path\": \"/a~2\"}]",
    NULL, NULL },
  { "proto-add-fails",
    "{}",
    "[{\"op\": \"add\", \"path\": \"/__proto__\", \"value\": {\"x\": 1}}]",
    NULL,
    "operation 0 (add /__proto__): '__proto__' is not allowed in a path" },
  { "proto-nested-fails",
    "{\"a\": {\"__proto__\": {}}}",
    "[{\"op\": \"add\", \"path\": \"/a/__proto__/x\", \"value\": 1}]",
    NULL, NULL },
  { "proto-test-fails",
    "{\"__proto__\": 1}",
    "[{\"op\": \"test\", \"path\": \"/__proto__\", \"value\": 1}]",
    NULL, NULL },
  { "proto-from-fails",
    "{\"__proto__\": 1}",
    "[{\"op\": \"copy\", \"from\": \"/__proto__\", \"path\": \"/b\"}]",
    NULL, NULL },
  { "error-names-index-op-and-path",
    "{\"a\": {}, \"n\": 1}",
    "[{\"op\": \"add\", \"path\": \"/x\", \"value\": 1},"
    " {\"op\": \"test\", \"path\": \"/n\", \"value\": 1},"
    " {\"op\": \"replace\", \"path\": \"/a/b\", \"value\": 2}]",
    NULL,
    "operation 2 (replace /a/b): no member 'b' at /a" },
  /* Rollback must undo every primitive, in reverse, member order included. */
  { "rollback-restores-everything",
    "{\"first\": 1, \"middle\": {\"k\": [1, 2, 3]}, \"last\": [\"x\", \"y\"]}",
    "[{\"op\": \"remove\", \"path\": \"/first\"},"
    " {\"op\": \"add\", \"path\": \"/middle/k/1\", \"value\": 9},"
    " {\"op\": \"replace\", \"path\": \"/middle/k/0\", \"value\": 8},"
    " {\"op\": \"remove\", \"path\": \"/middle/k/3\"},"
    " {\"op\": \"move\", \"from\": \"/last/0\", \"path\": \"/middle/moved\"},"
    " {\"op\": \"copy\", \"from\": \"/middle\", \"path\": \"/last/-\"},"
    " {\"op\": \"add\", \"path\": \"/first\", \"value\": 2},"
    " {\"op\": \"replace\", \"path\": \"\", \"value\": 3},"
    " {\"op\": \"remove\", \"path\": \"\"},"
    " {\"op\": \"add\", \"path\": \"\", \"value\": {\"z\": 1}},"
    " {\"op\": \"remove\", \"path\": \"/nope\"}]",
    NULL, NULL },
};

static void
test_atomic_same_node (void)
{
  g_autoptr(JsonNode) document = parse ("{\"a\": {\"b\": 1}, \"list\": [1, 2, 3]}");
  g_autoptr(JsonNode) saved = deep_copy (document);
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *original = document;
  JsonObject *original_object = json_node_get_object (document);
  JsonNode *original_a = json_object_get_member (original_object, "a");

  g_test_summary ("A patch whose third operation fails leaves the same document unchanged");

  patch = parse ("[{\"op\": \"add\", \"path\": \"/a/c\", \"value\": 2},"
                 " {\"op\": \"remove\", \"path\": \"/list/0\"},"
                 " {\"op\": \"replace\", \"path\": \"/a/missing\", \"value\": 5}]");

  g_assert_false (patch_apply (&document, json_node_get_array (patch), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
  g_assert_nonnull (strstr (error->message, "operation 2"));
  g_assert_nonnull (strstr (error->message, "/a/missing"));

  g_assert_true (document == original);
  g_assert_true (json_node_get_object (document) == original_object);
  g_assert_true (json_object_get_member (original_object, "a") == original_a);
  g_assert_true (_agui_json_node_equal (document, saved));
  g_assert_false (json_object_has_member (json_node_get_object (original_a), "c"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (original_object, "list")), ==, 3);
}

static void
test_member_order (void)
{
  g_autoptr(JsonNode) document = parse ("{\"a\": 1, \"b\": 2, \"c\": 3}");
  g_autoptr(JsonNode) patch = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("replace keeps a member's position; add of a new member appends it");

  patch = parse ("[{\"op\": \"replace\", \"path\": \"/a\", \"value\": 10},"
                 " {\"op\": \"add\", \"path\": \"/b\", \"value\": 20},"
                 " {\"op\": \"add\", \"path\": \"/d\", \"value\": 4}]");
  g_assert_true (patch_apply (&document, json_node_get_array (patch), &error));
  g_assert_no_error (error);

  text = json_to_string (document, FALSE);
  g_assert_cmpstr (text, ==, "{\"a\":10,\"b\":20,\"c\":3,\"d\":4}");
}

static void
test_remove_root (void)
{
  g_autoptr(JsonNode) document = parse ("{\"a\": [1, 2]}");
  g_autoptr(JsonNode) patch = parse ("[{\"op\": \"remove\", \"path\": \"\"}]");
  g_autoptr(GError) error = NULL;

  g_test_summary ("remove \"\" makes the document null, as the reference does");

  g_assert_true (patch_apply (&document, json_node_get_array (patch), &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_NULL (document));

  /* A null document can be replaced again, but not descended into. */
  g_clear_pointer (&patch, json_node_unref);
  patch = parse ("[{\"op\": \"add\", \"path\": \"/a\", \"value\": 1}]");
  g_assert_false (patch_apply (&document, json_node_get_array (patch), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
  g_assert_cmpstr (error->message, ==,
                   "operation 0 (add /a): the document is null, not an object or array");
  g_assert_true (JSON_NODE_HOLDS_NULL (document));
}

/* RFC 6901, section 5. */
static const char rfc6901_document[] =
  "{"
  "  \"foo\": [\"bar\", \"baz\"],"
  "  \"\": 0,"
  "  \"a/b\": 1,"
  "  \"c%d\": 2,"
  "  \"e^f\": 3,"
  "  \"g|h\": 4,"
  "  \"i\\\\j\": 5,"
  "  \"k\\\"l\": 6,"
  "  \" \": 7,"
  "  \"m~n\": 8"
  "}";

static const struct {
  const char *pointer;
  const char *expected;
} rfc6901_cases[] = {
  { "/foo", "[\"bar\", \"baz\"]" },
  { "/foo/0", "\"bar\"" },
  { "/", "0" },
  { "/a~1b", "1" },
  { "/c%d", "2" },
  { "/e^f", "3" },
  { "/g|h", "4" },
  { "/i\\j", "5" },
  { "/k\"l", "6" },
  { "/ ", "7" },
  { "/m~0n", "8" },
};

/* A patch of one `test` of @pointer against @value (JSON text). */
static gboolean
pointer_test (JsonNode    *document,
              const char  *pointer,
              const char  *value,
              GError     **error)
{
  g_autoptr(JsonNode) copy = deep_copy (document);
  g_autoptr(JsonNode) patch = json_node_init_array (json_node_alloc (), json_array_new ());
  JsonObject *operation = json_object_new ();

  json_object_set_string_member (operation, "op", "test");
  json_object_set_string_member (operation, "path", pointer);
  json_object_set_member (operation, "value", parse (value));
  json_array_add_object_element (json_node_get_array (patch), operation);

  return patch_apply (&copy, json_node_get_array (patch), error);
}

static void
test_pointer_rfc6901 (void)
{
  g_autoptr(JsonNode) document = parse (rfc6901_document);
  g_autoptr(GError) error = NULL;

  g_test_summary ("The JSON Pointer examples of RFC 6901, section 5");

  g_assert_true (pointer_test (document, "", rfc6901_document, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (rfc6901_cases); i++)
    {
      g_test_message ("pointer %s", rfc6901_cases[i].pointer);
      g_assert_true (pointer_test (document, rfc6901_cases[i].pointer, rfc6901_cases[i].expected, &error));
      g_assert_no_error (error);
    }
}

static void
test_pointer_errors (void)
{
  g_autoptr(JsonNode) document = parse ("{\"a\": [0, 1, 2], \"~1\": 1, \"s\": \"x\", \"__proto__\": 1}");
  static const struct {
    const char *pointer;
    const char *message;
  } cases[] = {
    { "a", "'a' is not a JSON pointer" },
    { "/a~", "'/a~' is not a JSON pointer" },
    { "/a~2", "'/a~2' is not a JSON pointer" },
    { "/a/01", "'01' is not an array index at /a" },
    { "/a/-", "'-' names no element of the array at /a" },
    { "/a/3", "index 3 is out of range at /a (length 3)" },
    { "/a/-1", "'-1' is not an array index at /a" },
    { "/a/+1", "'+1' is not an array index at /a" },
    { "/a/", "'' is not an array index at /a" },
    { "/b", "no member 'b' at the root" },
    { "/s/x", "/s is a string, not an object or array" },
    { "/~1", "no member '/' at the root" },
    { "/__proto__", "'__proto__' is not allowed in a path" },
  };

  g_test_summary ("Pointers that are malformed or name nothing");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *message = g_strdup_printf ("operation 0 (test %s): %s",
                                                  cases[i].pointer, cases[i].message);

      g_test_message ("pointer %s", cases[i].pointer);
      g_assert_false (pointer_test (document, cases[i].pointer, "null", &error));
      g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
      g_assert_cmpstr (error->message, ==, message);
    }

  /* "~01" decodes to "~1", not to "/" and then something else. */
  g_assert_true (pointer_test (document, "/~01", "1", NULL));
  g_assert_true (pointer_test (document, "/a/0", "0", NULL));
  g_assert_true (pointer_test (document, "/a/2", "2", NULL));
}

static void
test_pointer_syntax (void)
{
  static const char * const valid[] = {
    "", "/", "//", "/a", "/a/b", "/~0", "/~1", "/~01", "/a~1b/m~0n", "/01", "/-",
  };
  static const char * const invalid[] = {
    "a", "count", " /a", "#/a", "/~", "/a~", "/~2", "/~a", "/a~/b", "/__proto__", "/a/__proto__",
  };

  g_test_summary ("RFC 6901 syntax: \"\" or /-prefixed tokens with ~0 and ~1 escapes only, "
                  "and no __proto__ token");

  for (guint i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      g_autoptr(GPtrArray) tokens = _agui_json_pointer_parse (valid[i], NULL);

      g_test_message ("valid %s", valid[i]);
      g_assert_nonnull (tokens);
    }

  for (guint i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      g_autoptr(GPtrArray) tokens = _agui_json_pointer_parse (invalid[i], NULL);

      g_test_message ("invalid %s", invalid[i]);
      g_assert_null (tokens);
    }
}

static void
test_node_equal (void)
{
  static const struct {
    const char *a;
    const char *b;
    gboolean equal;
  } cases[] = {
    { "null", "null", TRUE },
    { "1", "1.0", TRUE },
    { "1.5", "1.5", TRUE },
    { "-0.0", "0", TRUE },
    { "1", "1.5", FALSE },
    { "9007199254740993", "9007199254740992.0", FALSE },
    { "9007199254740992", "9007199254740992.0", TRUE },
    { "1", "\"1\"", FALSE },
    { "1", "true", FALSE },
    { "0", "false", FALSE },
    { "0", "null", FALSE },
    { "\"\"", "null", FALSE },
    { "true", "true", TRUE },
    { "true", "false", FALSE },
    { "\"a\"", "\"a\"", TRUE },
    { "\"a\"", "\"b\"", FALSE },
    { "{\"a\": 1, \"b\": [1, 2]}", "{\"b\": [1, 2.0], \"a\": 1}", TRUE },
    { "{\"a\": 1}", "{\"a\": 1, \"b\": 2}", FALSE },
    { "{\"a\": 1, \"b\": 2}", "{\"a\": 1}", FALSE },
    { "{\"a\": null}", "{\"b\": null}", FALSE },
    { "{\"a\": null}", "{}", FALSE },
    { "[1, 2]", "[2, 1]", FALSE },
    { "[1, 2]", "[1, 2, 3]", FALSE },
    { "[]", "{}", FALSE },
    { "[[{\"x\": []}]]", "[[{\"x\": []}]]", TRUE },
    { "[[{\"x\": []}]]", "[[{\"x\": [null]}]]", FALSE },
  };

  g_test_summary ("Deep equality: member order irrelevant, numbers compared numerically");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) a = parse (cases[i].a);
      g_autoptr(JsonNode) b = parse (cases[i].b);

      g_test_message ("%s vs %s", cases[i].a, cases[i].b);
      g_assert_cmpint (_agui_json_node_equal (a, b), ==, cases[i].equal);
      g_assert_cmpint (_agui_json_node_equal (b, a), ==, cases[i].equal);
    }

  {
    g_autoptr(JsonNode) a = parse ("1");

    g_assert_true (_agui_json_node_equal (NULL, NULL));
    g_assert_false (_agui_json_node_equal (a, NULL));
    g_assert_false (_agui_json_node_equal (NULL, a));
    g_assert_true (_agui_json_node_equal (a, a));
  }
}

/* The AG-UI fixtures: the state the reference reached by applying the
 * STATE_* events it received, with a failing delta leaving it unchanged. */
typedef struct
{
  const char *name;
  guint       n_failing;
} FixtureCase;

static const FixtureCase fixture_cases[] = {
  { "state-snapshot-and-deltas", 0 },
  { "state-delta-failing-test", 1 },
  { "state-delta-on-initial-state", 0 },
  { "state-delta-unknown-op-dropped", 0 },
};

static void
run_fixture_case (gconstpointer data)
{
  const FixtureCase *test_case = data;
  g_autofree char *file_name = g_strconcat (test_case->name, ".json", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", file_name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *fixture;
  JsonObject *expected;
  JsonObject *setup;
  JsonArray *events;
  guint n_deltas = 0;
  guint n_failing = 0;

  g_test_summary (test_case->name);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  fixture = json_node_get_object (json_parser_get_root (parser));
  expected = json_object_get_object_member (fixture, "expected");
  events = json_object_get_array_member (expected, "appliedEvents");

  setup = json_object_has_member (fixture, "setup") ? json_object_get_object_member (fixture, "setup") : NULL;
  if (setup != NULL && json_object_has_member (setup, "state"))
    state = deep_copy (json_object_get_member (setup, "state"));
  else
    state = parse ("{}");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *type = json_object_get_string_member (event, "type");

      if (g_str_equal (type, "STATE_SNAPSHOT"))
        {
          g_clear_pointer (&state, json_node_unref);
          state = deep_copy (json_object_get_member (event, "snapshot"));
        }
      else if (g_str_equal (type, "STATE_DELTA"))
        {
          g_autoptr(JsonNode) before = deep_copy (state);
          JsonNode *original = state;

          gboolean applied;

          n_deltas++;
          applied = patch_apply (&state, json_object_get_array_member (event, "delta"), &error);
          if (!applied)
            {
              g_test_message ("delta %u failed: %s", n_deltas, error->message);
              g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
              g_assert_true (state == original);
              g_assert_true (_agui_json_node_equal (state, before));
              g_clear_error (&error);
              n_failing++;
            }
        }
    }

  g_assert_cmpuint (n_deltas, >, 0);
  g_assert_cmpuint (n_failing, ==, test_case->n_failing);
  if (!_agui_json_node_equal (state, json_object_get_member (expected, "state")))
    {
      g_autofree char *text = json_to_string (state, FALSE);

      g_error ("unexpected final state %s", text);
    }
}

static void
test_rollback_order (void)
{
  g_autoptr(JsonNode) document = parse ("{\"o\":{\"a\":1,\"b\":2,\"c\":3},\"l\":[1]}");
  g_autoptr(JsonNode) patch = parse ("["
                                     "{\"op\":\"add\",\"path\":\"/o/x\",\"value\":1},"
                                     "{\"op\":\"add\",\"path\":\"/o/y\",\"value\":{\"deep\":[1]}},"
                                     "{\"op\":\"remove\",\"path\":\"/o/b\"},"
                                     "{\"op\":\"add\",\"path\":\"/o/b\",\"value\":\"again\"},"
                                     "{\"op\":\"add\",\"path\":\"/o/z\",\"value\":null},"
                                     "{\"op\":\"add\",\"path\":\"/o/y/deep/0\",\"value\":0},"
                                     "{\"op\":\"replace\",\"path\":\"/o/a\",\"value\":9},"
                                     "{\"op\":\"move\",\"from\":\"/o/c\",\"path\":\"/o/w\"},"
                                     "{\"op\":\"add\",\"path\":\"/l/0\",\"value\":0},"
                                     "{\"op\":\"add\",\"path\":\"/o/v\",\"value\":1},"
                                     "{\"op\":\"test\",\"path\":\"/o/a\",\"value\":1}]");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_test_summary ("A failed patch that added many members, some of them removed, re-added or "
                  "moved on the way, leaves the document exactly as it was, order included");

  g_assert_false (patch_apply (&document, json_node_get_array (patch), &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
  text = json_to_string (document, FALSE);
  g_assert_cmpstr (text, ==, "{\"o\":{\"a\":1,\"b\":2,\"c\":3},\"l\":[1]}");
}

static void
test_insert_runs (void)
{
  static const struct { const char *patch; const char *expected; } cases[] = {
    /* repeated at the front, then at the end of the run, then appended */
    { "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":1},{\"op\":\"add\",\"path\":\"/a/0\",\"value\":2},"
      "{\"op\":\"add\",\"path\":\"/a/2\",\"value\":3},{\"op\":\"add\",\"path\":\"/a/-\",\"value\":4}]",
      "{\"a\":[2,1,3,\"x\",\"y\",4],\"b\":[]}" },
    /* in the middle, then elsewhere in the run's array, then a test that reads it */
    { "[{\"op\":\"add\",\"path\":\"/a/1\",\"value\":1},{\"op\":\"add\",\"path\":\"/a/1\",\"value\":2},"
      "{\"op\":\"add\",\"path\":\"/a/0\",\"value\":3},{\"op\":\"test\",\"path\":\"/a/3\",\"value\":1},"
      "{\"op\":\"add\",\"path\":\"/a/4\",\"value\":5}]",
      "{\"a\":[3,\"x\",2,1,5,\"y\"],\"b\":[]}" },
    /* two arrays in turn, and a path into an element of the run */
    { "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":{}},{\"op\":\"add\",\"path\":\"/b/-\",\"value\":1},"
      "{\"op\":\"add\",\"path\":\"/a/0\",\"value\":[]},{\"op\":\"add\",\"path\":\"/a/1/k\",\"value\":2},"
      "{\"op\":\"add\",\"path\":\"/a/0/0\",\"value\":3}]",
      "{\"a\":[[3],{\"k\":2},\"x\",\"y\"],\"b\":[1]}" },
    /* out of range while a run waits: the error counts the run's elements */
    { "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":1},{\"op\":\"add\",\"path\":\"/a/4\",\"value\":2}]",
      NULL },
    /* a run, then a failure: nothing of it stays */
    { "[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":1},{\"op\":\"add\",\"path\":\"/a/0\",\"value\":2},"
      "{\"op\":\"remove\",\"path\":\"/a/0\"},{\"op\":\"add\",\"path\":\"/a/1\",\"value\":3},"
      "{\"op\":\"test\",\"path\":\"/a/0\",\"value\":0}]",
      NULL },
  };

  g_test_summary ("Inserts held back as a run give what inserting one at a time gives, "
                  "errors and rollback included");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) document = parse ("{\"a\":[\"x\",\"y\"],\"b\":[]}");
      g_autoptr(JsonNode) before = deep_copy (document);
      g_autoptr(JsonNode) patch = parse (cases[i].patch);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      gboolean applied = patch_apply (&document, json_node_get_array (patch), &error);

      text = json_to_string (document, FALSE);
      if (cases[i].expected != NULL)
        {
          g_assert_no_error (error);
          g_assert_true (applied);
          g_assert_cmpstr (text, ==, cases[i].expected);
        }
      else
        {
          g_assert_false (applied);
          g_assert_error (error, AGUI_ERROR, AGUI_ERROR_PATCH);
          g_assert_cmpstr (text, ==, "{\"a\":[\"x\",\"y\"],\"b\":[]}");
          if (i == 3)
            g_assert_nonnull (strstr (error->message, "index 4 is out of range at /a (length 3)"));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (rfc6902_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/json-patch/rfc6902/%s", rfc6902_cases[i].name);

      g_test_add_data_func (path, &rfc6902_cases[i], run_patch_case);
    }

  for (guint i = 0; i < G_N_ELEMENTS (behaviour_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/json-patch/apply/%s", behaviour_cases[i].name);

      g_test_add_data_func (path, &behaviour_cases[i], run_patch_case);
    }

  g_test_add_func ("/agui/json-patch/atomic/same-node", test_atomic_same_node);
  g_test_add_func ("/agui/json-patch/apply/member-order", test_member_order);
  g_test_add_func ("/agui/json-patch/apply/remove-root-null", test_remove_root);
  g_test_add_func ("/agui/json-patch/rfc6901/examples", test_pointer_rfc6901);
  g_test_add_func ("/agui/json-patch/pointer/errors", test_pointer_errors);
  g_test_add_func ("/agui/json-patch/pointer/syntax", test_pointer_syntax);
  g_test_add_func ("/agui/json-patch/equal", test_node_equal);
  g_test_add_func ("/agui/json-patch/rollback-order", test_rollback_order);
  g_test_add_func ("/agui/json-patch/insert-runs", test_insert_runs);

  for (guint i = 0; i < G_N_ELEMENTS (fixture_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agui/json-patch/fixtures/%s", fixture_cases[i].name);

      g_test_add_data_func (path, &fixture_cases[i], run_fixture_case);
    }

  return g_test_run ();
}
