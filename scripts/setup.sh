#!/bin/sh
# One-time setup of the plugin installed from its git repository: install the dependencies
# when they are missing, build the SQLite binding (Claude Code installs packages without
# running their build scripts) and the code. One run at a time (a lock directory); the log
# says what happened.
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
lock="$root/.homunculus-setup.lock"
log="$root/.homunculus-setup.log"
if ! mkdir "$lock" 2>/dev/null; then
  # A lock left by a setup that died (no process with its pid) is taken over.
  pid=$(cat "$lock/pid" 2>/dev/null)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then exit 0; fi
  rm -rf "$lock" && mkdir "$lock" 2>/dev/null || exit 0
fi
echo $$ >"$lock/pid"
trap 'rm -rf "$lock"' EXIT INT TERM
cd "$root" || exit 1
{
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) homunculus setup in $root"
  if [ ! -d node_modules/better-sqlite3 ] || [ ! -d node_modules/typescript ]; then
    npm ci --no-audit --no-fund --ignore-scripts || exit 1
  fi
  npm rebuild better-sqlite3 || exit 1
  npm run build || exit 1
  node dist/cli/bin.js --version && echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) setup done"
} >>"$log" 2>&1
