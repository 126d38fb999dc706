/* tandem-schema-form.h
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define TANDEM_TYPE_SCHEMA_FORM (tandem_schema_form_get_type ())
G_DECLARE_FINAL_TYPE (TandemSchemaForm, tandem_schema_form, TANDEM, SCHEMA_FORM, GtkWidget)

GtkWidget *tandem_schema_form_new       (JsonObject        *schema,
                                         JsonNode          *initial);
gboolean   tandem_schema_form_validate  (TandemSchemaForm  *self,
                                         GError           **error);
JsonNode  *tandem_schema_form_get_value (TandemSchemaForm  *self);
gboolean   tandem_schema_form_is_single (TandemSchemaForm  *self);
gboolean   tandem_schema_form_has_field (TandemSchemaForm  *self,
                                         const char        *name);
GtkWidget *tandem_schema_form_get_row   (TandemSchemaForm  *self,
                                         const char        *name);
GtkWidget *tandem_schema_form_get_input (TandemSchemaForm  *self,
                                         const char        *name);

G_END_DECLS
