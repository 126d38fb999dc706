/* tandem-bench-state.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>
#include <time.h>

#include "agui.h"
#include "agui-event-private.h"
#include "agui-json-doc-access-private.h"
#include "agui-json-patch-private.h"
#include "agui-json-private.h"
#include "agui-reducer-private.h"
#include "agui-transcript-private.h"

#include "tandem-bench.h"

/* The patches are written with json-glib and read by the engine as a
 * tree, made before the clock starts. */
static void
array_to_value (AguiJsonValue *value,
                JsonArray     *patch)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), json_array_ref (patch));

  _agui_json_value_set_node (value, node);
}

/* The reducer's paths whose cost once grew with the size of the shared
 * state or the number of open steps rather than with the change: each is
 * run COUNT times (100,000 by default) and its CPU time printed; member
 * removal 10,000 times from objects of COUNT/10, COUNT and 10*COUNT. Inputs
 * are built before the clock starts; the result is checked after it
 * stops, so that a fast wrong answer cannot pass. */

static double
cpu_seconds (void)
{
  struct timespec now;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now);

  return now.tv_sec + now.tv_nsec / 1e9;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = _agui_json_parse (text, -1, &error);

  g_assert_no_error (error);

  return node;
}

static JsonObject *
operation (const char *op,
           const char *path,
           JsonNode   *value)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "op", op);
  json_object_set_string_member (object, "path", path);
  if (value != NULL)
    json_object_set_member (object, "value", value);

  return object;
}

static JsonNode *
integer (gint64 value)
{
  return json_node_init_int (json_node_alloc (), value);
}

static void
report (const char *what,
        guint       count,
        double      seconds)
{
  g_print ("%-44s %9u ops %9.3f s %12.0f ops/s\n", what, count, seconds, count / MAX (seconds, 1e-9));
}

static gboolean state_array_check (AguiJsonValue *document,
                                   guint          length,
                                   gint64         first,
                                   gint64         last,
                                   const char    *what);

/* A tree of @text, and its size uncapped. */
static void
doc_parse (AguiJsonValue     *document,
           AguiJsonDocBounds *bounds,
           const char        *text)
{
  g_autoptr(JsonNode) node = parse (text);

  _agui_json_value_set_node (document, node);
  bounds->size = 0;
  bounds->max_size = 0;
  _agui_json_value_measure (document, AGUI_JSON_MAX_DEPTH, &bounds->size);
}

static gboolean
bench_array (guint       count,
             const char *path,
             const char *what)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds;
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  double start;
  gboolean applied;

  doc_parse (&document, &bounds, "{\"a\":[]}");
  for (guint i = 0; i < count; i++)
    json_array_add_object_element (patch, operation ("add", path, integer (i)));

  array_to_value (&operations, patch);
  start = cpu_seconds ();
  applied = _agui_json_doc_patch_apply (&document, &bounds, &operations, &error);
  report (what, count, cpu_seconds () - start);

  if (!applied)
    {
      g_printerr ("tandem-cli: %s failed: %s\n", what, error->message);
      _agui_json_value_clear (&document);
      return FALSE;
    }

  return path[3] == '0' ? state_array_check (&document, count, count - 1, 0, what)
                        : state_array_check (&document, count, 0, count - 1, what);
}

static gboolean
bench_rollback (guint count)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonValue before = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds;
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  double start;
  gboolean applied, unchanged;

  doc_parse (&document, &bounds, "{\"o\":{\"keep\":1},\"a\":[0]}");
  /* Object adds, all undone by the failing test. */
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *path = g_strdup_printf ("/o/k%u", i);

      json_array_add_object_element (patch, operation ("add", path, integer (i)));
    }
  json_array_add_object_element (patch, operation ("test", "/o/keep", integer (2)));

  _agui_json_value_copy (&before, &document);
  array_to_value (&operations, patch);
  start = cpu_seconds ();
  applied = _agui_json_doc_patch_apply (&document, &bounds, &operations, &error);
  report ("rollback of object adds by a failed test", count, cpu_seconds () - start);

  unchanged = _agui_json_value_equal (&document, &before);
  _agui_json_value_clear (&document);
  _agui_json_value_clear (&before);
  if (applied || !unchanged)
    {
      g_printerr ("tandem-cli: a failed patch changed the document\n");
      return FALSE;
    }

  return TRUE;
}

static gboolean
bench_replace (guint count)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonValue members = AGUI_JSON_VALUE_INIT;
  AguiJsonDocObject *object = _agui_json_value_set_object (&members, count);
  AguiJsonDocBounds bounds = { .size = 0, .max_size = 0 };
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  double start;
  gboolean applied, right;

  for (guint i = 0; i < count; i++)
    {
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;
      g_autofree char *name = g_strdup_printf ("k%u", i);
      g_autofree char *path = g_strdup_printf ("/o/k%u", i);

      _agui_json_value_set_int (&value, i);
      _agui_json_object_append (object, name, &value);
      json_array_add_object_element (patch, operation ("replace", path, integer (-(gint64) i)));
    }
  _agui_json_object_append (_agui_json_value_set_object (&document, 1), "o", &members);

  array_to_value (&operations, patch);
  start = cpu_seconds ();
  applied = _agui_json_doc_patch_apply (&document, &bounds, &operations, &error);
  report ("replace members of one large object", count, cpu_seconds () - start);

  object = _agui_json_object_slot_value (document.u.object, 0)->u.object;
  right = applied && count > 1 &&
          _agui_json_object_slot_value (object, _agui_json_object_find (object, "k1"))->u.integer == -1;
  _agui_json_value_clear (&document);
  if (!right && count > 1)
    {
      g_printerr ("tandem-cli: replacing members gave the wrong document\n");
      return FALSE;
    }

  return TRUE;
}

/* The shared state's own tree: removing members of one object costs the
 * same per member whatever the object's size (a hash index finds it, a
 * hole takes its place), where json-glib's list made it linear. The
 * same REMOVALS members go from objects of growing size. */
#define REMOVALS 10000

static gboolean
bench_state_remove (guint size)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonValue members = AGUI_JSON_VALUE_INIT;
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  g_autofree char *what = NULL;
  AguiJsonDocObject *object;
  guint step = MAX (size / REMOVALS, 1);
  guint removals = MIN (size, REMOVALS);
  double start;
  gboolean applied;

  object = _agui_json_value_set_object (&members, size);
  for (guint i = 0; i < size; i++)
    {
      g_autofree char *name = g_strdup_printf ("k%u", i);
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_int (&value, i);
      _agui_json_object_append (object, name, &value);
    }
  _agui_json_object_append (_agui_json_value_set_object (&document, 1), "o", &members);

  /* Spread over the object, newest first: the far end for a list. */
  for (guint i = removals; i > 0; i--)
    {
      g_autofree char *path = g_strdup_printf ("/o/k%u", (i - 1) * step);

      json_array_add_object_element (patch, operation ("remove", path, NULL));
    }

  what = g_strdup_printf ("remove from an object of %u (state)", size);
  array_to_value (&operations, patch);
  start = cpu_seconds ();
  applied = _agui_json_doc_patch_apply (&document, NULL, &operations, &error);
  report (what, removals, cpu_seconds () - start);

  object = _agui_json_object_slot_value (document.u.object, 0)->u.object;
  /* k0 was removed; k1 too unless members were skipped */
  if (!applied || _agui_json_object_get_size (object) != size - removals ||
      _agui_json_object_find (object, "k0") >= 0 ||
      (_agui_json_object_find (object, "k1") >= 0) != (step > 1))
    {
      g_printerr ("tandem-cli: removing members gave the wrong state: %s\n",
                  error != NULL ? error->message : "wrong members");
      _agui_json_value_clear (&document);
      return FALSE;
    }

  _agui_json_value_clear (&document);

  return TRUE;
}

/* The state {"a": [0, 1, …, count - 1]} and its size. */
static void
state_array_new (AguiJsonValue     *document,
                 AguiJsonDocBounds *bounds,
                 guint              count)
{
  AguiJsonValue array = AGUI_JSON_VALUE_INIT;
  AguiJsonDocArray *items = _agui_json_value_set_array (&array, count);

  for (guint i = 0; i < count; i++)
    {
      AguiJsonValue value = AGUI_JSON_VALUE_INIT;

      _agui_json_value_set_int (&value, i);
      _agui_json_array_insert (items, i, &value);
    }
  _agui_json_object_append (_agui_json_value_set_object (document, 1), "a", &array);
  bounds->size = 0;
  bounds->max_size = AGUI_JSON_DOC_DEFAULT_MAX_SIZE;
  _agui_json_value_measure (document, AGUI_JSON_MAX_DEPTH, &bounds->size);
}

static gboolean
state_array_check (AguiJsonValue *document,
                   guint          length,
                   gint64         first,
                   gint64         last,
                   const char    *what)
{
  AguiJsonDocArray *items = _agui_json_object_slot_value (document->u.object, 0)->u.array;
  gboolean right = _agui_json_array_get_length (items) == length &&
                   (length == 0 || (_agui_json_array_get (items, 0)->u.integer == first &&
                                    _agui_json_array_get (items, length - 1)->u.integer == last));

  if (!right)
    g_printerr ("tandem-cli: %s gave the wrong state\n", what);
  _agui_json_value_clear (document);

  return right;
}

/* Taking the first element of the state's array again and again, in one
 * delta: once each a move of the whole array. */
static gboolean
bench_state_front (guint       count,
                   gboolean    move,
                   const char *what)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds;
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  double start;
  gboolean applied;

  state_array_new (&document, &bounds, count);
  for (guint i = 0; i < count; i++)
    {
      JsonObject *op = operation (move ? "move" : "remove", move ? "/a/-" : "/a/0", NULL);

      if (move)
        json_object_set_string_member (op, "from", "/a/0");
      json_array_add_object_element (patch, op);
    }

  array_to_value (&operations, patch);
  start = cpu_seconds ();
  applied = _agui_json_doc_patch_apply (&document, &bounds, &operations, NULL);
  report (what, count, cpu_seconds () - start);

  if (!applied)
    {
      g_printerr ("tandem-cli: %s failed\n", what);
      _agui_json_value_clear (&document);
      return FALSE;
    }

  return move ? state_array_check (&document, count, 0, count - 1, what)
              : state_array_check (&document, 0, 0, 0, what);
}

/* One delta of one insert at the front, COUNT times: no run to batch. */
static gboolean
bench_state_front_deltas (guint count)
{
  AguiJsonValue document = AGUI_JSON_VALUE_INIT;
  AguiJsonDocBounds bounds;
  g_autoptr(JsonArray) patch = json_array_new ();
  g_auto(AguiJsonValue) operations = AGUI_JSON_VALUE_INIT;
  const char *what = "add /a/0 as separate deltas (state)";
  gboolean applied = TRUE;
  double start;

  state_array_new (&document, &bounds, 0);
  json_array_add_object_element (patch, operation ("add", "/a/0", integer (7)));

  array_to_value (&operations, patch);
  start = cpu_seconds ();
  for (guint i = 0; i < count && applied; i++)
    applied = _agui_json_doc_patch_apply (&document, &bounds, &operations, NULL);
  report (what, count, cpu_seconds () - start);

  return applied && state_array_check (&document, count, 7, 7, what);
}

/* An activity's content through the reducer, as the quadratic paths of
 * the state once were: COUNT one-operation ACTIVITY_DELTA events of
 * add /a/0, then one delta that moves each element to the back, copies
 * and tests the first, and finally removes them all from the front. */
static gboolean
bench_activity (guint count)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiEvent) snapshot = NULL;
  g_autoptr(AguiEvent) add = NULL;
  g_autoptr(AguiEvent) churn = NULL;
  g_autoptr(GString) json = g_string_new ("{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\","
                                          "\"activityType\":\"plan\",\"patch\":[");
  AguiTranscript *transcript = _agui_reducer_get_transcript (reducer);
  AguiActivityPart *part;
  JsonNode *content;
  double start;

  snapshot = agui_event_new_from_string ("{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a\","
                                         "\"activityType\":\"plan\",\"content\":{\"a\":[]}}", -1, NULL);
  _agui_reducer_apply (reducer, snapshot);
  add = agui_event_new_from_string ("{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a\",\"activityType\":\"plan\","
                                    "\"patch\":[{\"op\":\"add\",\"path\":\"/a/0\",\"value\":7}]}", -1, NULL);
  for (guint i = 0; i < count; i++)
    g_string_append (json, "{\"op\":\"move\",\"from\":\"/a/0\",\"path\":\"/a/-\"},"
                           "{\"op\":\"copy\",\"from\":\"/a/0\",\"path\":\"/a/0\"},"
                           "{\"op\":\"test\",\"path\":\"/a/1\",\"value\":7},");
  for (guint i = 0; i < 2 * count; i++)
    g_string_append (json, "{\"op\":\"remove\",\"path\":\"/a/0\"},");
  g_string_truncate (json, json->len - 1);
  g_string_append (json, "]}");
  churn = agui_event_new_from_string (json->str, json->len, NULL);
  /* the event's patch is a tree, read before the clock */
  g_assert (_agui_event_peek_member (churn, "patch") != NULL);

  start = cpu_seconds ();
  for (guint i = 0; i < count; i++)
    _agui_reducer_apply (reducer, add);
  report ("add /a/0 as separate deltas (activity)", count, cpu_seconds () - start);

  start = cpu_seconds ();
  _agui_reducer_apply (reducer, churn);
  report ("move, copy, test and remove /a/0 (activity)", 5 * count, cpu_seconds () - start);

  part = AGUI_ACTIVITY_PART (_agui_record_get_last_part (_agui_transcript_lookup_record (transcript, "a"),
                                                          AGUI_TYPE_ACTIVITY_PART));
  content = agui_activity_part_get_content (part);
  if (json_array_get_length (json_object_get_array_member (json_node_get_object (content), "a")) != 0)
    {
      g_printerr ("tandem-cli: the activity deltas gave the wrong content\n");
      return FALSE;
    }

  return TRUE;
}

static gboolean
bench_steps (guint count)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) agui_event_unref);
  double start;

  g_ptr_array_add (events, agui_event_new_from_string ("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}",
                                                       -1, NULL));
  /* Finished in the order they started: the outermost each time, the
   * far end of the list from where a search for the innermost begins. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < count; i++)
      {
        g_autofree char *json = g_strdup_printf ("{\"type\":\"%s\",\"stepName\":\"s%u\"}",
                                                 pass == 0 ? "STEP_STARTED" : "STEP_FINISHED", i);

        g_ptr_array_add (events, agui_event_new_from_string (json, -1, NULL));
      }

  start = cpu_seconds ();
  for (guint i = 0; i < events->len; i++)
    {
      _agui_reducer_apply (reducer, g_ptr_array_index (events, i));
      if (i == count)
        g_assert (g_strv_length ((char **) agui_transcript_get_steps (_agui_reducer_get_transcript (reducer))) == count);
    }
  report ("STEP_STARTED then STEP_FINISHED, oldest first", 2 * count, cpu_seconds () - start);

  if (agui_transcript_get_steps (_agui_reducer_get_transcript (reducer))[0] != NULL)
    {
      g_printerr ("tandem-cli: steps were left open\n");
      return FALSE;
    }

  return TRUE;
}

static gboolean
bench_print (guint count)
{
  g_autoptr(JsonNode) wide = NULL;
  g_autoptr(JsonNode) deep = NULL;
  g_autoptr(GString) nested = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *wide_text = NULL;
  g_autofree char *deep_text = NULL;
  JsonArray *array = json_array_new ();
  double start;

  for (guint i = 0; i < count; i++)
    {
      JsonObject *element = json_object_new ();

      json_object_set_int_member (element, "n", i);
      json_object_set_string_member (element, "tag", "new");
      json_array_add_object_element (array, element);
    }
  wide = json_node_init_array (json_node_alloc (), array);
  json_array_unref (array);

  /* As deep as the limit lets a document be. */
  for (guint i = 0; i < AGUI_JSON_MAX_DEPTH / 2; i++)
    g_string_append (nested, "{\"a\":[");
  g_string_truncate (nested, nested->len - 1);
  g_string_append (nested, "1");
  for (guint i = 0; i < AGUI_JSON_MAX_DEPTH / 2; i++)
    g_string_append (nested, i == 0 ? "}" : "]}");
  deep = parse (nested->str);

  start = cpu_seconds ();
  wide_text = _agui_json_to_string (wide, TRUE, &error);
  report ("print a state of that many objects, pretty", count, cpu_seconds () - start);

  start = cpu_seconds ();
  for (guint i = 0; i < count / 1000; i++)
    {
      g_free (deep_text);
      deep_text = _agui_json_to_string (deep, TRUE, &error);
    }
  report ("print a state nested to the limit, pretty", count / 1000, cpu_seconds () - start);

  if (wide_text == NULL || deep_text == NULL)
    {
      g_printerr ("tandem-cli: printing failed: %s\n", error != NULL ? error->message : "?");
      return FALSE;
    }

  g_print ("%-44s %9" G_GSIZE_FORMAT " bytes wide, %" G_GSIZE_FORMAT " bytes deep\n", "printed",
           strlen (wide_text), strlen (deep_text));

  return TRUE;
}

int
tandem_bench_state_command (int    argc,
                            char **argv)
{
  guint count = 100000;
  gboolean ok = TRUE;

  if (argc > 2 || (argc == 2 && (count = (guint) g_ascii_strtoull (argv[1], NULL, 10)) == 0))
    {
      g_printerr ("Usage: tandem-cli bench state [COUNT]\n");
      return 2;
    }

  ok &= bench_array (count, "/a/0", "add /a/0 repeated in one patch");
  ok &= bench_array (count, "/a/-", "add /a/- (append) repeated in one patch");
  ok &= bench_state_front (count, FALSE, "remove /a/0 repeated in one delta (state)");
  ok &= bench_state_front (count, TRUE, "move /a/0 to /a/- repeated in one delta (state)");
  ok &= bench_state_front_deltas (count);
  ok &= bench_replace (count);
  ok &= bench_rollback (count);
  ok &= bench_state_remove (count / 10);
  ok &= bench_state_remove (count);
  ok &= bench_state_remove (count * 10);
  ok &= bench_activity (count);
  ok &= bench_steps (count);
  ok &= bench_print (count);

  return ok ? 0 : 1;
}
