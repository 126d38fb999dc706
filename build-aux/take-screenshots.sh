#!/usr/bin/env bash
# Takes the screenshots the metainfo shows (data/screenshots/) of the real
# app under Xvfb, talking to the built-in demo agent.
#
#   build-aux/take-screenshots.sh [BUILD_DIR]
#
# Needs xvfb-run, xdotool and ImageMagick's import (apt: xvfb xdotool
# imagemagick). Nothing here touches your own settings or conversations.
set -euo pipefail

cd "$(dirname "$0")/.."
build=${1:-_build}
out=data/screenshots

if [ -z "${TANDEM_SCREENSHOT_INNER:-}" ]; then
  for tool in xvfb-run xdotool import; do
    command -v "$tool" >/dev/null || { echo "$tool is missing (apt install xvfb xdotool imagemagick)" >&2; exit 1; }
  done
  meson compile -C "$build" src/tandem
  export TANDEM_SCREENSHOT_INNER=1
  exec xvfb-run -a -s "-screen 0 1400x1000x24" "$0" "$build"
fi

tmp=$(mktemp -d)
trap 'kill "${app:-0}" "${wm:-0}" 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir -p "$out"

export GSETTINGS_SCHEMA_DIR="$PWD/$build/data"
export GSETTINGS_BACKEND=memory
export GTK_A11Y=none
export XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"

# A window manager, for real title bars and dialogs placed as people see them
if command -v openbox >/dev/null; then
  openbox >/dev/null 2>&1 &
  wm=$!
  sleep 1
fi

"$build/src/tandem" --store "$tmp/tandem.db" &
app=$!

window=""
for _ in $(seq 50); do
  window=$(xdotool search --onlyvisible --name "Tandem|New Chat" 2>/dev/null | head -1 || true)
  [ -n "$window" ] && break
  sleep 0.2
done
[ -n "$window" ] || { echo "the window did not appear" >&2; exit 1; }

xdotool windowsize "$window" 1200 860
xdotool windowmove "$window" 0 0
xdotool windowactivate --sync "$window" 2>/dev/null || xdotool windowfocus "$window"
sleep 1

# The welcome page, with the demo agent's example prompts
import -window "$window" "$out/welcome.png"

# Preferences first, while nothing else is open.
xdotool key ctrl+comma
sleep 2
prefs=$(xdotool search --onlyvisible --name "Preferences" 2>/dev/null | head -1 || true)
if [ -n "$prefs" ]; then
  import -window "$prefs" "$out/preferences.png"
  xdotool windowactivate --sync "$prefs" 2>/dev/null || true
  xdotool key Escape
else
  import -window root "$out/preferences.png"
fi
sleep 1
xdotool windowactivate --sync "$window" 2>/dev/null || xdotool windowfocus "$window"

xdotool type --delay 15 "Hi! What can you show me?"
xdotool key Return

# The demo streams, calls the clock, then asks for approval.
# A busy machine streams slowly: wait up to two minutes, and take no
# screenshot of a conversation that never got there.
dialog=""
for _ in $(seq 600); do
  dialog=$(xdotool search --onlyvisible --name "Approve" 2>/dev/null | head -1 || true)
  [ -n "$dialog" ] && break
  sleep 0.2
done
[ -n "$dialog" ] || { echo "the approval dialog did not appear" >&2; exit 1; }
sleep 1
import -window root "$tmp/approval.png"
convert "$tmp/approval.png" -crop 1200x860+0+0 +repage "$out/approval.png"

# Approve with the dialog's button (its lower right third) and let the
# agent finish: the screenshot shows a finished conversation.
eval "$(xdotool getwindowgeometry --shell "$dialog")"
xdotool mousemove $((X + WIDTH * 83 / 100)) $((Y + HEIGHT - 25)) click 1
for _ in $(seq 150); do
  xdotool search --onlyvisible --name "Approve" >/dev/null 2>&1 || break
  sleep 0.2
done
sleep 20
# Pinned, as a conversation one comes back to: its row shows the pin
xdotool windowactivate --sync "$window" 2>/dev/null || xdotool windowfocus "$window"
xdotool key ctrl+alt+p
sleep 2
import -window "$window" "$out/conversation.png"

echo "Screenshots in $out:"
ls -l "$out"
