/* tandem-application.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tandem-application.h"

struct _TandemApplication
{
  AdwApplication  parent_instance;
};

G_DEFINE_FINAL_TYPE (TandemApplication, tandem_application, ADW_TYPE_APPLICATION)

static void
tandem_application_class_init (TandemApplicationClass *klass)
{
}

static void
tandem_application_init (TandemApplication *self)
{
}

TandemApplication *
tandem_application_new (void)
{
  return g_object_new (TANDEM_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       NULL);
}
