/* tandem-display-text.c
 *
 * SPDX-FileCopyrightText: 2026 The Tandem developers
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tandem-display-text.h"

/* Pango 1.50 wraps a paragraph in time quadratic in its lines: a 50 KB
 * line took 300 ms to lay out at 700 pixels and 1.3 s at 160 (the width
 * a label's minimum is measured at), and a label is laid out again
 * whenever its text changes. Lines broken every TANDEM_DISPLAY_LINE_BYTES
 * make that linear; a cap bounds it. */
#define STREAMING_TAIL_BYTES 2048

/**
 * tandem_display_text:
 * @text: (nullable): what to show
 * @max_bytes: the most of it to show
 * @streaming: whether @text is still growing: then only its end is shown
 *
 * What a wrapping label can show of @text in time linear in its length:
 * a line longer than %TANDEM_DISPLAY_LINE_BYTES is broken; a text longer
 * than @max_bytes is cut, with a line saying how much was left out; a
 * streaming text shows its last 2 KB after an ellipsis, without a copy of
 * the rest.
 *
 * Returns: (transfer full): the text to put on the label
 */
char *
tandem_display_text (const char *text,
                     gsize       max_bytes,
                     gboolean    streaming)
{
  gsize length = text != NULL ? strlen (text) : 0;
  const char *start = text != NULL ? text : "";
  const char *end = start + length;
  GString *shown;
  gsize run = 0;

  if (length <= TANDEM_DISPLAY_LINE_BYTES && memchr (start, '\n', length) == NULL)
    return g_strdup (start);

  shown = g_string_sized_new (MIN (length, max_bytes) + 64);
  if (streaming && length > STREAMING_TAIL_BYTES)
    {
      start = g_utf8_find_next_char (end - STREAMING_TAIL_BYTES - 1, end);
      g_string_append (shown, "…");
      run = shown->len;
    }
  else if (length > max_bytes)
    {
      end = g_utf8_find_prev_char (start, start + max_bytes + 1);
    }

  /* Line by line, so that a text of short lines costs a copy */
  for (const char *line = start; line < end;)
    {
      const char *newline = memchr (line, '\n', end - line);
      const char *line_end = newline != NULL ? newline : end;

      while ((gsize) (line_end - line) + run > TANDEM_DISPLAY_LINE_BYTES)
        {
          /* Broken at a character, never inside one */
          const char *cut = g_utf8_find_prev_char (line, line + TANDEM_DISPLAY_LINE_BYTES - run + 1);

          if (cut == NULL || cut <= line)
            cut = g_utf8_next_char (line);
          g_string_append_len (shown, line, cut - line);
          g_string_append_c (shown, '\n');
          line = cut;
          run = 0;
        }
      g_string_append_len (shown, line, line_end - line);
      run += line_end - line;
      if (newline != NULL)
        {
          g_string_append_c (shown, '\n');
          run = 0;
          line = newline + 1;
        }
      else
        line = end;
    }

  if (end < text + length && !streaming)
    {
      g_autofree char *rest = g_format_size (text + length - end);

      g_string_append_c (shown, '\n');
      /* Translators: under a long text cut short where it is shown, such
       * as a tool's arguments; %s is a size such as "42.1 kB" */
      g_string_append_printf (shown, _("… %s more, left out here; Copy copies all of it"), rest);
    }

  return g_string_free (shown, FALSE);
}

/* What people write after the fence, and what a reader calls it. Writers
 * use many spellings for one language; a label that says "c" or "py"
 * reads like a mistake. */
static const struct
{
  const char *alias;
  const char *name;
} language_names[] = {
  { "bash", "Bash" }, { "c", "C" }, { "c#", "C#" }, { "c++", "C++" },
  { "cc", "C++" }, { "clojure", "Clojure" }, { "cmake", "CMake" },
  { "console", "Console" }, { "cpp", "C++" }, { "cs", "C#" },
  { "csharp", "C#" }, { "css", "CSS" }, { "cxx", "C++" }, { "dart", "Dart" },
  { "diff", "Diff" }, { "dockerfile", "Dockerfile" }, { "elixir", "Elixir" },
  { "erlang", "Erlang" }, { "fish", "Fish" }, { "go", "Go" },
  { "golang", "Go" }, { "gql", "GraphQL" }, { "graphql", "GraphQL" },
  { "h", "C" }, { "haskell", "Haskell" }, { "hpp", "C++" },
  { "hs", "Haskell" }, { "html", "HTML" }, { "ini", "INI" },
  { "java", "Java" }, { "javascript", "JavaScript" }, { "js", "JavaScript" },
  { "json", "JSON" }, { "jsonc", "JSON" }, { "jsx", "JSX" },
  { "kotlin", "Kotlin" }, { "kt", "Kotlin" }, { "latex", "LaTeX" },
  { "lua", "Lua" }, { "make", "Makefile" }, { "makefile", "Makefile" },
  { "markdown", "Markdown" }, { "md", "Markdown" }, { "meson", "Meson" },
  { "nix", "Nix" }, { "objc", "Objective-C" }, { "objective-c", "Objective-C" },
  { "ocaml", "OCaml" }, { "patch", "Diff" }, { "perl", "Perl" },
  { "php", "PHP" }, { "pl", "Perl" }, { "plaintext", "Plain Text" },
  { "powershell", "PowerShell" }, { "ps1", "PowerShell" },
  { "py", "Python" }, { "python", "Python" }, { "python3", "Python" },
  { "r", "R" }, { "rb", "Ruby" }, { "rs", "Rust" }, { "ruby", "Ruby" },
  { "rust", "Rust" }, { "scala", "Scala" }, { "scss", "SCSS" },
  { "sh", "Shell" }, { "shell", "Shell" }, { "sql", "SQL" },
  { "swift", "Swift" }, { "tex", "LaTeX" }, { "text", "Plain Text" },
  { "toml", "TOML" }, { "ts", "TypeScript" }, { "tsx", "TSX" },
  { "txt", "Plain Text" }, { "typescript", "TypeScript" }, { "vala", "Vala" },
  { "xml", "XML" }, { "yaml", "YAML" }, { "yml", "YAML" }, { "zig", "Zig" },
  { "zsh", "Zsh" },
};

static int
compare_alias (const void *key,
               const void *entry)
{
  return strcmp (key, *(const char * const *) entry);
}

/**
 * tandem_code_language_name:
 * @language: (nullable): the language a fenced code block names
 *
 * The name a reader knows @language by: "C" for "c", "Python" for "py".
 * A language not known here keeps its own spelling, with a capital first
 * letter when it came all in lower case.
 *
 * Returns: (transfer full): the name, or an empty string for none
 */
char *
tandem_code_language_name (const char *language)
{
  g_autofree char *folded = NULL;
  const void *found;

  if (language == NULL || language[0] == '\0')
    return g_strdup ("");

  folded = g_ascii_strdown (language, -1);
  found = bsearch (folded, language_names, G_N_ELEMENTS (language_names),
                   sizeof language_names[0], compare_alias);
  if (found != NULL)
    return g_strdup (((const char * const *) found)[1]);

  if (strcmp (folded, language) == 0 && g_ascii_isalpha (language[0]))
    {
      char *named = g_strdup (language);

      named[0] = g_ascii_toupper (named[0]);
      return named;
    }

  return g_strdup (language);
}
