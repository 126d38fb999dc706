// urlmap.js: where gi-docgen links to the reference of each dependency.
//
// SPDX-FileCopyrightText: 2026 The Tandem developers
// SPDX-License-Identifier: LGPL-2.1-or-later

baseURLs = [
  [ 'GLib', 'https://docs.gtk.org/glib/' ],
  [ 'GModule', 'https://docs.gtk.org/gmodule/' ],
  [ 'GObject', 'https://docs.gtk.org/gobject/' ],
  [ 'Gio', 'https://docs.gtk.org/gio/' ],
  [ 'Json', 'https://gnome.pages.gitlab.gnome.org/json-glib/' ],
  [ 'Soup', 'https://libsoup.org/libsoup-3.0/' ],
]
