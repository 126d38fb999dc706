/* test-a2ui-surface.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#undef G_DISABLE_ASSERT

#include "config.h"

#include <glib/gstdio.h>

#include "agui.h"
#include "agui-agent-session-private.h"
#include "agui-reducer-private.h"
#include "agui-test-util.h"

/* The A2UI surface model, headless, on fixtures written from the
 * specification's examples (tests/data/a2ui/). */

static JsonNode *
load_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "a2ui", name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_parser_steal_root (parser);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);

  return json_parser_steal_root (parser);
}

static JsonArray *
operations_of (JsonNode *content)
{
  JsonObject *object = json_node_get_object (content);

  if (json_object_has_member (object, "operations"))
    return json_object_get_array_member (object, "operations");

  return json_object_get_array_member (object, "a2ui_operations");
}

static char *
text_of (AguiA2uiSurface *surface,
         const char      *id,
         const char      *scope)
{
  AguiA2uiComponent *component = agui_a2ui_surface_get_component (surface, id);

  g_assert_nonnull (component);

  return agui_a2ui_surface_resolve_string (surface, agui_a2ui_component_get_property (component, "text"), scope);
}

static gboolean
has_error (AguiA2uiSurface *surface,
           const char      *pattern)
{
  const char * const *errors = agui_a2ui_surface_get_errors (surface);

  for (guint i = 0; errors[i] != NULL; i++)
    if (g_pattern_match_simple (pattern, errors[i]))
      return TRUE;

  return FALSE;
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
test_buffers_until_begin_rendering (void)
{
  g_autoptr(JsonNode) content = load_fixture ("profile-v08.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(GPtrArray) children = NULL;
  g_autofree char *name = NULL;
  JsonArray *operations = operations_of (content);
  JsonNode *last;
  AguiA2uiComponent *root;
  guint structure = 0;

  g_test_summary ("Components are buffered and nothing is ready before beginRendering");
  g_signal_connect (surface, "structure-changed", G_CALLBACK (count_cb), &structure);

  last = json_node_ref (json_array_get_element (operations, json_array_get_length (operations) - 1));
  json_array_remove_element (operations, json_array_get_length (operations) - 1);
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_false (agui_a2ui_surface_get_ready (surface));
  g_assert_null (agui_a2ui_surface_get_root (surface));
  g_assert_cmpuint (agui_a2ui_surface_get_n_components (surface), ==, 9);
  g_assert_cmpstr (agui_a2ui_surface_get_surface_id (surface), ==, "profile");
  g_assert_null (agui_a2ui_surface_get_errors (surface)[0]);

  /* The activity delta that adds /operations/- with beginRendering. */
  json_array_add_element (operations, last);
  structure = 0;
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_true (agui_a2ui_surface_get_ready (surface));
  g_assert_cmpuint (structure, ==, 1);
  root = agui_a2ui_surface_get_root (surface);
  g_assert_nonnull (root);
  g_assert_cmpint (agui_a2ui_component_get_kind (root), ==, AGUI_A2UI_COMPONENT_COLUMN);
  children = agui_a2ui_surface_list_children (surface, root, NULL, NULL);
  g_assert_cmpuint (children->len, ==, 1);
  g_assert_cmpint (agui_a2ui_component_get_kind (children->pdata[0]), ==, AGUI_A2UI_COMPONENT_CARD);

  /* v0.8 shapes come out in the v0.9 shape. */
  g_assert_cmpstr (agui_a2ui_component_get_string (agui_a2ui_surface_get_component (surface, "name_text"), "variant"),
                   ==, "h3");
  g_assert_cmpstr (agui_a2ui_component_get_string (agui_a2ui_surface_get_component (surface, "header_row"), "align"),
                   ==, "center");
  name = text_of (surface, "name_text", NULL);
  g_assert_cmpstr (name, ==, "A2A Fan");
  g_assert_null (agui_a2ui_surface_get_errors (surface)[0]);
}

static void
test_binding_and_templates (void)
{
  g_autoptr(JsonNode) content = load_fixture ("weather-v08.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(GPtrArray) days = NULL;
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) parts = NULL;
  g_autoptr(GPtrArray) part_scopes = NULL;
  g_autoptr(JsonObject) action = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *high = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *temp = NULL;
  AguiA2uiComponent *forecast;
  JsonObject *context;

  g_test_summary ("Paths resolve against the data model, templates repeat per item in its scope");
  agui_a2ui_surface_apply_content (surface, content);
  g_assert_true (agui_a2ui_surface_get_ready (surface));
  g_assert_null (agui_a2ui_surface_get_errors (surface)[0]);

  high = text_of (surface, "temp-high", NULL);
  g_assert_cmpstr (high, ==, "72°");

  forecast = agui_a2ui_surface_get_component (surface, "forecast");
  g_assert_cmpstr (agui_a2ui_component_get_string (forecast, "justify"), ==, "spaceAround");
  days = agui_a2ui_surface_list_children (surface, forecast, NULL, &scopes);
  g_assert_cmpuint (days->len, ==, 2);
  g_assert_cmpstr (scopes->pdata[1], ==, "/forecast/1");

  parts = agui_a2ui_surface_list_children (surface, days->pdata[1], scopes->pdata[1], &part_scopes);
  g_assert_cmpuint (parts->len, ==, 2);
  icon = text_of (surface, agui_a2ui_component_get_id (parts->pdata[0]), part_scopes->pdata[0]);
  temp = text_of (surface, agui_a2ui_component_get_id (parts->pdata[1]), part_scopes->pdata[1]);
  g_assert_cmpstr (icon, ==, "⛅");
  g_assert_cmpstr (temp, ==, "71°");

  /* The button's action context, resolved; primary became a variant. */
  g_assert_cmpstr (agui_a2ui_component_get_string (agui_a2ui_surface_get_component (surface, "refresh"), "variant"),
                   ==, "primary");
  action = agui_a2ui_surface_build_action (surface, agui_a2ui_surface_get_component (surface, "refresh"), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (action, "name"), ==, "refresh_weather");
  g_assert_cmpstr (json_object_get_string_member (action, "surfaceId"), ==, "weather");
  g_assert_cmpstr (json_object_get_string_member (action, "sourceComponentId"), ==, "refresh");
  g_assert_true (json_object_has_member (action, "timestamp"));
  context = json_object_get_object_member (action, "context");
  g_assert_cmpstr (json_object_get_string_member (context, "city"), ==, "Austin, TX");
  g_assert_cmpstr (json_object_get_string_member (context, "units"), ==, "F");

  /* A component with no action says so. */
  g_assert_null (agui_a2ui_surface_build_action (surface, forecast, NULL, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
}

static void
test_data_update_is_incremental (void)
{
  g_autoptr(JsonNode) content = load_fixture ("weather-v08.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(AguiA2uiComponent) before = NULL;
  g_autofree char *location = NULL;
  guint structure = 0, data = 0;

  g_test_summary ("A dataModelUpdate changes the data and keeps every component");
  agui_a2ui_surface_apply_content (surface, content);
  before = g_object_ref (agui_a2ui_surface_get_component (surface, "location"));
  g_signal_connect (surface, "structure-changed", G_CALLBACK (count_cb), &structure);
  g_signal_connect (surface, "data-changed", G_CALLBACK (count_cb), &data);

  json_array_add_element (operations_of (content),
                          parse ("{\"dataModelUpdate\":{\"surfaceId\":\"weather\",\"contents\":"
                                 "[{\"key\":\"location\",\"valueString\":\"Berlin\"}]}}"));
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_cmpuint (structure, ==, 0);
  g_assert_cmpuint (data, ==, 1);
  g_assert_true (agui_a2ui_surface_get_component (surface, "location") == before);
  location = text_of (surface, "location", NULL);
  g_assert_cmpstr (location, ==, "Berlin");

  /* The same content again changes nothing. */
  agui_a2ui_surface_apply_content (surface, content);
  g_assert_cmpuint (structure + data, ==, 1);

  /* A replacing snapshot with another component is a structural change. */
  json_array_add_element (operations_of (content),
                          parse ("{\"surfaceUpdate\":{\"surfaceId\":\"weather\",\"components\":"
                                 "[{\"id\":\"location\",\"component\":{\"Text\":{\"text\":{\"literalString\":\"Here\"}}}}]}}"));
  agui_a2ui_surface_apply_content (surface, content);
  g_assert_cmpuint (structure, ==, 1);
}

static void
test_v09_and_two_way (void)
{
  g_autoptr(JsonNode) content = load_fixture ("login-v09.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(JsonNode) typed = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) checked = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonObject) action = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  AguiA2uiComponent *email;
  JsonObject *context;
  guint data = 0;

  g_test_summary ("v0.9 surfaces render after createSurface; inputs write the data the action sends");
  agui_a2ui_surface_apply_content (surface, content);
  g_assert_true (agui_a2ui_surface_get_ready (surface));
  g_assert_cmpstr (agui_a2ui_surface_get_root_id (surface), ==, "root");
  g_assert_null (agui_a2ui_surface_get_errors (surface)[0]);

  email = agui_a2ui_surface_get_component (surface, "email");
  g_assert_cmpint (agui_a2ui_component_get_kind (email), ==, AGUI_A2UI_COMPONENT_TEXT_FIELD);
  path = agui_a2ui_surface_dup_bound_path (surface, agui_a2ui_component_get_property (email, "value"), NULL);
  g_assert_cmpstr (path, ==, "/email");

  g_signal_connect (surface, "data-changed", G_CALLBACK (count_cb), &data);
  json_node_set_string (typed, "ada@example.org");
  g_assert_true (agui_a2ui_surface_set_value (surface, path, typed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (data, ==, 1);
  /* Writing the same value again is no change. */
  g_assert_true (agui_a2ui_surface_set_value (surface, path, typed, &error));
  g_assert_cmpuint (data, ==, 1);
  json_node_set_boolean (checked, TRUE);
  g_assert_true (agui_a2ui_surface_set_value (surface, "/remember", checked, &error));

  action = agui_a2ui_surface_build_action (surface, agui_a2ui_surface_get_component (surface, "login-btn"), NULL, &error);
  g_assert_no_error (error);
  context = json_object_get_object_member (action, "context");
  g_assert_cmpstr (json_object_get_string_member (action, "name"), ==, "login");
  g_assert_cmpstr (json_object_get_string_member (context, "email"), ==, "ada@example.org");
  g_assert_true (json_object_get_boolean_member (context, "remember"));

  /* A path through a string is refused, and the data is left alone. */
  g_assert_false (agui_a2ui_surface_set_value (surface, "/email/first", typed, &error));
  g_assert_error (error, AGUI_ERROR, AGUI_ERROR_INVALID_ARGUMENT);
}

static void
test_errors_keep_the_rest (void)
{
  g_autoptr(JsonNode) content = load_fixture ("broken-v08.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(GPtrArray) children = NULL;
  g_autofree char *fine = NULL;

  g_test_summary ("Unknown types, missing children, cycles and bad paths are listed; the rest is kept");
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_true (agui_a2ui_surface_get_ready (surface));
  g_assert_true (has_error (surface, "*'mystery'*unknown type 'Hologram'*"));
  g_assert_true (has_error (surface, "*'root' names a child 'ghost' that does not exist*"));
  g_assert_true (has_error (surface, "*'loop-a' contains itself*"));
  g_assert_true (has_error (surface, "Component 5 has no id*"));
  g_assert_true (has_error (surface, "dataModelUpdate: Path '/name/first/x' goes through a value*"));
  g_assert_true (has_error (surface, "Operation 3 is not one this client knows ('teleport')*"));
  g_assert_true (has_error (surface, "surfaceUpdate for surface 'other' ignored*"));

  fine = text_of (surface, "fine", NULL);
  g_assert_cmpstr (fine, ==, "Still here");
  children = agui_a2ui_surface_list_children (surface, agui_a2ui_surface_get_root (surface), NULL, NULL);
  /* ghost names nothing and is left out; mystery is there to show a placeholder. */
  g_assert_cmpuint (children->len, ==, 3);
}

static void
test_bad_v08_contents_are_listed (void)
{
  g_autoptr(JsonNode) content = load_fixture ("weather-v08.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(GString) deep = g_string_new ("{\"dataModelUpdate\":{\"surfaceId\":\"weather\",\"contents\":[");
  g_autofree char *location = NULL;

  g_test_summary ("v0.8 entries that cannot be read are listed, in order; the readable ones are kept");
  json_array_add_element (operations_of (content),
                          parse ("{\"dataModelUpdate\":{\"surfaceId\":\"weather\",\"contents\":"
                                 "[3,{\"valueString\":\"x\"},{\"key\":\"k\"},"
                                 "{\"key\":\"location\",\"valueString\":\"Berlin\"}]}}"));
  for (guint i = 0; i < 70; i++)
    g_string_append (deep, "{\"key\":\"a\",\"valueMap\":[");
  for (guint i = 0; i < 70; i++)
    g_string_append (deep, "]}");
  g_string_append (deep, "]}}");
  json_array_add_element (operations_of (content), parse (deep->str));
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_true (has_error (surface, "dataModelUpdate: entry 0 is not an object"));
  g_assert_true (has_error (surface, "dataModelUpdate: entry 1 has no key"));
  g_assert_true (has_error (surface, "dataModelUpdate: entry 'k' has no value"));
  g_assert_true (has_error (surface, "dataModelUpdate nests deeper than 64 levels: the rest is ignored"));
  location = text_of (surface, "location", NULL);
  g_assert_cmpstr (location, ==, "Berlin");
}

static void
test_delete_surface (void)
{
  g_autoptr(JsonNode) content = load_fixture ("login-v09.json");
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  guint structure = 0;

  g_test_summary ("deleteSurface removes components and data");
  agui_a2ui_surface_apply_content (surface, content);
  g_signal_connect (surface, "structure-changed", G_CALLBACK (count_cb), &structure);
  json_array_add_element (operations_of (content),
                          parse ("{\"version\":\"v0.9\",\"deleteSurface\":{\"surfaceId\":\"login\"}}"));
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_true (agui_a2ui_surface_get_deleted (surface));
  g_assert_false (agui_a2ui_surface_get_ready (surface));
  g_assert_null (agui_a2ui_surface_get_root (surface));
  g_assert_cmpuint (agui_a2ui_surface_get_n_components (surface), ==, 0);
  g_assert_cmpuint (structure, ==, 1);
}

static void
test_lifecycle_status (void)
{
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(JsonNode) building = parse ("{\"status\":\"building\",\"progressTokens\":40}");
  g_autoptr(JsonNode) failed = parse ("{\"status\":\"failed\",\"error\":\"bad schema\"}");
  g_autoptr(JsonNode) nothing = parse ("{\"something\":1}");

  g_test_summary ("The middleware's pre-paint lifecycle is a status, not an error, until it fails");
  agui_a2ui_surface_apply_content (surface, building);
  g_assert_cmpstr (agui_a2ui_surface_get_status (surface), ==, "building");
  g_assert_null (agui_a2ui_surface_get_errors (surface)[0]);
  g_assert_false (agui_a2ui_surface_get_ready (surface));

  agui_a2ui_surface_apply_content (surface, failed);
  g_assert_true (has_error (surface, "*could not build this surface: bad schema"));

  agui_a2ui_surface_apply_content (surface, nothing);
  g_assert_null (agui_a2ui_surface_get_status (surface));
  g_assert_true (has_error (surface, "*no list of operations*"));

  agui_a2ui_surface_apply_content (surface, NULL);
  g_assert_true (has_error (surface, "*no list of operations*"));
}

static void
test_literal_initializes_path (void)
{
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(JsonNode) content = NULL;
  g_autofree char *text = NULL;
  JsonNode *stored;

  g_test_summary ("A v0.8 path with a literal initializes the data model and binds to it");
  content = parse ("{\"operations\":[{\"surfaceUpdate\":{\"surfaceId\":\"s\",\"components\":["
                   "{\"id\":\"root\",\"component\":{\"TextField\":{\"label\":{\"literalString\":\"Name\"},"
                   "\"text\":{\"path\":\"/user/name\",\"literalString\":\"Guest\"}}}}]}},"
                   "{\"beginRendering\":{\"surfaceId\":\"s\",\"root\":\"root\"}}]}");
  agui_a2ui_surface_apply_content (surface, content);

  stored = json_object_get_member (json_object_get_object_member (json_node_get_object (agui_a2ui_surface_get_data_model (surface)),
                                                                  "user"),
                                   "name");
  g_assert_cmpstr (json_node_get_string (stored), ==, "Guest");
  text = agui_a2ui_surface_resolve_string (surface,
                                           agui_a2ui_component_get_property (agui_a2ui_surface_get_root (surface), "value"),
                                           NULL);
  g_assert_cmpstr (text, ==, "Guest");
}

static void
test_deep_tree (void)
{
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(GString) json = g_string_new ("{\"operations\":[{\"surfaceUpdate\":{\"surfaceId\":\"s\",\"components\":[");
  g_autoptr(JsonNode) content = NULL;

  g_test_summary ("A chain of cards deeper than the limit is an error, not a stack overflow");
  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (json, "%s{\"id\":\"c%u\",\"component\":{\"Card\":{\"child\":\"c%u\"}}}",
                            i ? "," : "", i, i + 1);
  g_string_append (json, "]}},{\"beginRendering\":{\"surfaceId\":\"s\",\"root\":\"c0\"}}]}");
  content = parse (json->str);
  agui_a2ui_surface_apply_content (surface, content);

  g_assert_true (has_error (surface, "*nested deeper than 64 levels"));
}

/* Fuzzing: mutated operations never crash the model, every error is
 * valid UTF-8 and the data model always prints as JSON that parses. */

static JsonNode *
random_value (GRand *rand,
              guint  depth)
{
  static const char * const strings[] = {
    "root", "/", "/a/0", "~1", "path", "literalString", "explicitList", "Text", "", "-", "..", "/a/-"
  };

  switch (g_rand_int_range (rand, 0, depth > 6 ? 4 : 7))
    {
    case 0: return json_node_new (JSON_NODE_NULL);
    case 1: { JsonNode *n = json_node_new (JSON_NODE_VALUE); json_node_set_int (n, g_rand_int_range (rand, -2, 5)); return n; }
    case 2: { JsonNode *n = json_node_new (JSON_NODE_VALUE); json_node_set_boolean (n, g_rand_boolean (rand)); return n; }
    case 3: { JsonNode *n = json_node_new (JSON_NODE_VALUE);
              json_node_set_string (n, strings[g_rand_int_range (rand, 0, G_N_ELEMENTS (strings))]); return n; }
    case 4:
    case 5:
      {
        JsonObject *object = json_object_new ();
        guint n = g_rand_int_range (rand, 0, 4);

        for (guint i = 0; i < n; i++)
          json_object_set_member (object, strings[g_rand_int_range (rand, 0, G_N_ELEMENTS (strings))],
                                  random_value (rand, depth + 1));
        return json_node_init_object (json_node_alloc (), object);
      }
    default:
      {
        JsonArray *array = json_array_new ();
        guint n = g_rand_int_range (rand, 0, 4);

        for (guint i = 0; i < n; i++)
          json_array_add_element (array, random_value (rand, depth + 1));
        return json_node_init_array (json_node_alloc (), array);
      }
    }
}

/* Replaces one randomly chosen node of @node with a random value. */
static void
mutate (JsonNode *node,
        GRand    *rand,
        guint     depth)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) names = json_object_get_members (object);
      guint n = g_list_length (names);
      const char *name;

      if (n == 0)
        return;
      name = g_list_nth_data (names, g_rand_int_range (rand, 0, n));
      if (g_rand_int_range (rand, 0, 4) == 0 || depth > 8)
        json_object_set_member (object, name, random_value (rand, 0));
      else
        mutate (json_object_get_member (object, name), rand, depth + 1);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      if (n == 0)
        return;
      if (g_rand_int_range (rand, 0, 5) == 0)
        json_array_remove_element (array, g_rand_int_range (rand, 0, n));
      else
        mutate (json_array_get_element (array, g_rand_int_range (rand, 0, n)), rand, depth + 1);
    }
}

static void
walk (AguiA2uiSurface   *surface,
      AguiA2uiComponent *component,
      const char        *scope,
      guint              depth)
{
  g_autoptr(GPtrArray) scopes = NULL;
  g_autoptr(GPtrArray) children = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  /* A view bounds its walk the same way. */
  if (depth > 64)
    return;

  json_object_iter_init (&iter, agui_a2ui_component_get_properties (component));
  while (json_object_iter_next (&iter, &name, &value))
    {
      g_autofree char *text = agui_a2ui_surface_resolve_string (surface, value, scope);

      g_assert_true (text == NULL || g_utf8_validate (text, -1, NULL));
    }

  children = agui_a2ui_surface_list_children (surface, component, scope, &scopes);
  for (guint i = 0; i < children->len; i++)
    walk (surface, children->pdata[i], scopes->pdata[i], depth + 1);
}

static void
test_fuzz (void)
{
  static const char * const fixtures[] = {
    "profile-v08.json", "weather-v08.json", "login-v09.json", "broken-v08.json"
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);

  g_test_summary ("Mutated operations never crash the model; its output stays valid");
  for (guint round = 0; round < 500; round++)
    {
      g_autoptr(JsonNode) content = load_fixture (fixtures[round % G_N_ELEMENTS (fixtures)]);
      g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *printed = NULL;
      const char * const *errors;
      AguiA2uiComponent *root;
      guint n = g_rand_int_range (rand, 1, 6);

      /* Apply once clean, then mutated, so both the incremental and the
       * rebuilding paths see bad input. */
      if (round % 2 == 0)
        agui_a2ui_surface_apply_content (surface, content);
      for (guint i = 0; i < n; i++)
        mutate (content, rand, 0);
      agui_a2ui_surface_apply_content (surface, content);

      errors = agui_a2ui_surface_get_errors (surface);
      for (guint i = 0; errors[i] != NULL; i++)
        g_assert_true (g_utf8_validate (errors[i], -1, NULL));

      if ((root = agui_a2ui_surface_get_root (surface)) != NULL)
        walk (surface, root, NULL, 0);

      json_generator_set_root (generator, agui_a2ui_surface_get_data_model (surface));
      printed = json_generator_to_data (generator, NULL);
      g_assert_true (json_parser_load_from_data (parser, printed, -1, NULL));
    }
}

static void
test_from_activity_events (void)
{
  g_autoptr(AguiReducer) reducer = _agui_reducer_new (NULL);
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(AguiSpeakerTurn) message = NULL;
  g_autoptr(AguiPart) part = NULL;
  g_autofree char *location = NULL;
  g_autoptr(JsonNode) content = load_fixture ("weather-v08.json");
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *content_json = NULL;
  g_autofree char *snapshot_json = NULL;
  g_autoptr(AguiEvent) snapshot = NULL;
  g_autoptr(AguiEvent) delta = NULL;
  g_autoptr(GError) error = NULL;
  guint data = 0;

  g_test_summary ("An ACTIVITY_SNAPSHOT and an ACTIVITY_DELTA appending an operation drive the surface");
  json_generator_set_root (generator, content);
  content_json = json_generator_to_data (generator, NULL);
  snapshot_json = g_strdup_printf ("{\"type\":\"ACTIVITY_SNAPSHOT\",\"messageId\":\"a2ui-surface-weather\","
                                   "\"activityType\":\"a2ui-surface\",\"content\":%s}", content_json);
  snapshot = agui_event_new_from_string (snapshot_json, -1, &error);
  g_assert_no_error (error);
  delta = agui_event_new_from_string ("{\"type\":\"ACTIVITY_DELTA\",\"messageId\":\"a2ui-surface-weather\","
                                      "\"activityType\":\"a2ui-surface\",\"patch\":[{\"op\":\"add\",\"path\":\"/operations/-\","
                                      "\"value\":{\"dataModelUpdate\":{\"surfaceId\":\"weather\",\"contents\":"
                                      "[{\"key\":\"location\",\"valueString\":\"Oslo\"}]}}}]}", -1, &error);
  g_assert_no_error (error);

  _agui_reducer_apply (reducer, snapshot);
  message = g_list_model_get_item (G_LIST_MODEL (_agui_reducer_get_transcript (reducer)), 0);
  part = g_list_model_get_item (G_LIST_MODEL (message), 0);
  g_assert_true (AGUI_IS_ACTIVITY_PART (part));
  g_assert_cmpstr (agui_activity_part_get_activity_type (AGUI_ACTIVITY_PART (part)), ==, AGUI_A2UI_ACTIVITY_TYPE);
  agui_a2ui_surface_apply_content (surface, agui_activity_part_get_content (AGUI_ACTIVITY_PART (part)));
  g_signal_connect (surface, "data-changed", G_CALLBACK (count_cb), &data);

  _agui_reducer_apply (reducer, delta);
  agui_a2ui_surface_apply_content (surface, agui_activity_part_get_content (AGUI_ACTIVITY_PART (part)));

  g_assert_cmpuint (data, ==, 1);
  location = text_of (surface, "location", NULL);
  g_assert_cmpstr (location, ==, "Oslo");
}

static AguiActivityPart *
find_surface_part (AguiTranscript *transcript)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (transcript)); i++)
    {
      g_autoptr(AguiSpeakerTurn) message = g_list_model_get_item (G_LIST_MODEL (transcript), i);

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (message)); j++)
        {
          g_autoptr(AguiPart) part = g_list_model_get_item (G_LIST_MODEL (message), j);

          if (AGUI_IS_ACTIVITY_PART (part) &&
              g_strcmp0 (agui_activity_part_get_activity_type (AGUI_ACTIVITY_PART (part)), AGUI_A2UI_ACTIVITY_TYPE) == 0)
            return AGUI_ACTIVITY_PART (part);
        }
    }

  return NULL;
}

static void
test_persists_with_the_thread (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tandem-a2ui-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "tandem.db", NULL);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autoptr(AguiSessionStore) store = agui_session_store_new (path, &error);
  g_autoptr(AguiDemoAgent) demo = agui_demo_agent_new ();
  g_autoptr(AguiAgentSession) session = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (demo), "thread-id", NULL, "tools", NULL, "store", store, "agent", "demo", NULL);
  g_autoptr(AguiAgentSession) reopened = NULL;
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(AguiA2uiSurface) restored = agui_a2ui_surface_new ();
  g_autoptr(GAsyncResult) sent = NULL;
  g_autoptr(GAsyncResult) acted = NULL;
  g_autoptr(AguiRunState) state = NULL;
  g_autoptr(JsonObject) action = NULL;
  g_autoptr(JsonNode) hours = json_node_new (JSON_NODE_VALUE);
  g_autofree char *summary = NULL;
  g_autofree char *restored_summary = NULL;

  g_test_summary ("An action goes to the agent; the surface it updated reopens from the store as it was");
  agui_demo_agent_set_delay (demo, 0);
  g_assert_no_error (error);

  agui_agent_session_send_async (session, "dashboard", NULL, NULL, agui_test_store_result_cb, &sent);
  while (sent == NULL)
    g_main_context_iteration (NULL, TRUE);
  state = agui_agent_session_send_finish (session, sent, &error);
  g_assert_no_error (error);
  g_clear_pointer (&state, agui_run_state_unref);

  agui_a2ui_surface_apply_content (surface, agui_activity_part_get_content (find_surface_part (agui_agent_session_get_transcript (session))));
  g_assert_true (agui_a2ui_surface_get_ready (surface));
  json_node_set_int (hours, 6);
  g_assert_true (agui_a2ui_surface_set_value (surface, "/focus", hours, &error));
  action = agui_a2ui_surface_build_action (surface, agui_a2ui_surface_get_component (surface, "plan"), NULL, &error);
  g_assert_no_error (error);

  agui_agent_session_send_a2ui_action_async (session, action, NULL, NULL, agui_test_store_result_cb, &acted);
  while (acted == NULL)
    g_main_context_iteration (NULL, TRUE);
  state = agui_agent_session_send_a2ui_action_finish (session, acted, &error);
  g_assert_no_error (error);
  g_assert_null (agui_run_state_get_error_message (state));

  agui_a2ui_surface_apply_content (surface, agui_activity_part_get_content (find_surface_part (agui_agent_session_get_transcript (session))));
  summary = text_of (surface, "summary", NULL);
  g_assert_true (g_str_has_prefix (summary, "Planned: 6 hours of focus"));

  reopened = g_object_new (AGUI_TYPE_AGENT_SESSION, "transport", AGUI_TRANSPORT (demo), "thread-id", agui_agent_session_get_thread_id (session), "tools", NULL, "store", store, "agent", "demo", NULL);
  g_assert_true (_agui_agent_session_restore (reopened, &error));
  g_assert_no_error (error);
  agui_a2ui_surface_apply_content (restored, agui_activity_part_get_content (find_surface_part (agui_agent_session_get_transcript (reopened))));
  restored_summary = text_of (restored, "summary", NULL);
  g_assert_cmpstr (restored_summary, ==, summary);
  g_assert_null (agui_a2ui_surface_get_errors (restored)[0]);

  g_clear_object (&reopened);
  g_clear_object (&session);
  g_clear_object (&store);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_rmdir (dir);
}

static void
test_getters_follow_the_data (void)
{
  g_autoptr(AguiA2uiSurface) surface = agui_a2ui_surface_new ();
  g_autoptr(JsonNode) content = NULL;
  g_autoptr(JsonNode) bound = parse ("{\"path\":\"/user/name\"}");
  g_autoptr(JsonNode) typed = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) kept = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *first;
  JsonNode *model;

  g_test_summary ("The data model is kept in the library's own tree; the json-glib nodes the getters hand "
                  "out are built once per change of the data, and one held by a reference stays as it was");
  content = parse ("{\"operations\":[{\"createSurface\":{\"surfaceId\":\"s\"}},"
                   "{\"updateDataModel\":{\"surfaceId\":\"s\",\"path\":\"/user\",\"value\":{\"name\":\"Ada\",\"age\":36}}}]}");
  agui_a2ui_surface_apply_content (surface, content);

  first = agui_a2ui_surface_resolve (surface, bound, NULL);
  g_assert_nonnull (first);
  g_assert_cmpstr (json_node_get_string (first), ==, "Ada");
  g_assert_true (json_node_is_immutable (first));
  /* One node per path until the data changes. */
  g_assert_true (agui_a2ui_surface_resolve (surface, bound, NULL) == first);
  model = agui_a2ui_surface_get_data_model (surface);
  g_assert_true (agui_a2ui_surface_get_data_model (surface) == model);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (model), "user"), "age"),
                   ==, 36);

  kept = json_node_ref (first);
  json_node_set_string (typed, "Grace");
  g_assert_true (agui_a2ui_surface_set_value (surface, "/user/name", typed, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (agui_a2ui_surface_resolve (surface, bound, NULL)), ==, "Grace");
  g_assert_cmpstr (json_node_get_string (kept), ==, "Ada");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (agui_a2ui_surface_get_data_model (surface)),
                                                                                 "user"),
                                                  "name"), ==, "Grace");

  /* A removed member resolves to nothing. */
  g_clear_pointer (&content, json_node_unref);
  content = parse ("{\"operations\":[{\"createSurface\":{\"surfaceId\":\"s\"}},"
                   "{\"updateDataModel\":{\"surfaceId\":\"s\",\"path\":\"/user\",\"value\":{\"name\":\"Ada\",\"age\":36}}},"
                   "{\"updateDataModel\":{\"surfaceId\":\"s\",\"path\":\"/user/name\"}}]}");
  agui_a2ui_surface_apply_content (surface, content);
  g_assert_null (agui_a2ui_surface_resolve (surface, bound, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/agui/a2ui-surface/buffers-until-begin-rendering", test_buffers_until_begin_rendering);
  g_test_add_func ("/agui/a2ui-surface/binding-and-templates", test_binding_and_templates);
  g_test_add_func ("/agui/a2ui-surface/data-update-is-incremental", test_data_update_is_incremental);
  g_test_add_func ("/agui/a2ui-surface/v09-and-two-way", test_v09_and_two_way);
  g_test_add_func ("/agui/a2ui-surface/errors-keep-the-rest", test_errors_keep_the_rest);
  g_test_add_func ("/agui/a2ui-surface/bad-v08-contents-are-listed", test_bad_v08_contents_are_listed);
  g_test_add_func ("/agui/a2ui-surface/delete-surface", test_delete_surface);
  g_test_add_func ("/agui/a2ui-surface/lifecycle-status", test_lifecycle_status);
  g_test_add_func ("/agui/a2ui-surface/literal-initializes-path", test_literal_initializes_path);
  g_test_add_func ("/agui/a2ui-surface/deep-tree", test_deep_tree);
  g_test_add_func ("/agui/a2ui-surface/getters-follow-the-data", test_getters_follow_the_data);
  g_test_add_func ("/agui/a2ui-surface/fuzz", test_fuzz);
  g_test_add_func ("/agui/a2ui-surface/from-activity-events", test_from_activity_events);
  g_test_add_func ("/agui/a2ui-surface/persists-with-the-thread", test_persists_with_the_thread);

  return g_test_run ();
}
