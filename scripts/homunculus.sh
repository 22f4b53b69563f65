#!/bin/sh
# Runs homunculus for the Claude Code plugin: this plugin's own build when it is ready, else
# an installed `homunculus`. Installed straight from its git repository, the plugin has its
# dependencies (Claude Code installs them without running their build scripts) but no build:
# the first hook then starts the one-time setup in the background (scripts/setup.sh) and says
# so. A hook never fails the agent.
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
log="$root/.homunculus-setup.log"
ready() {
  [ -f "$root/dist/cli/bin.js" ] && [ -f "$root/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]
}
if ready; then exec node "$root/dist/cli/bin.js" "$@"; fi
if command -v homunculus >/dev/null 2>&1; then exec homunculus "$@"; fi

# First run: set up once, in the background (the lock inside setup.sh keeps it to one).
state=failed
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  state=no-node
elif [ -d "$root/.homunculus-setup.lock" ]; then
  state=running
else
  # In its own session, so the agent does not wait for it (nor kill it) when the hook returns.
  if command -v setsid >/dev/null 2>&1; then
    setsid sh "$root/scripts/setup.sh" </dev/null >/dev/null 2>&1 &
  else
    nohup sh "$root/scripts/setup.sh" </dev/null >/dev/null 2>&1 &
  fi
  state=started
fi
case "$state" in
  no-node) message="Homunculus needs Node.js 20.16 or newer with npm on PATH; install it, then start a new session." ;;
  *) message="Homunculus is setting itself up for the first time (building its SQLite binding and its code, about two minutes; log: $log). Sessions are recorded from the next one on." ;;
esac
if [ "$1" = hook ]; then
  cat >/dev/null
  # Tell the user once per session, at its start; other hooks stay silent.
  if [ "$2" = start ]; then
    printf '{"systemMessage": "%s"}\n' "$message"
  fi
  exit 0
fi
echo "homunculus: $message" >&2
echo "  fix: wait for the setup to finish (see $log), or install the CLI with: npm install -g homunculus-memory" >&2
exit 1
