#!/bin/sh
# Runs the homunculus CLI for the Claude Code plugin: this checkout's build when present,
# else an installed `homunculus`. A hook never fails the agent when neither exists.
root="${0%/*}/.."
if [ -f "$root/dist/cli/bin.js" ]; then exec node "$root/dist/cli/bin.js" "$@"; fi
if command -v homunculus >/dev/null 2>&1; then exec homunculus "$@"; fi
if [ "$1" = hook ]; then
  cat >/dev/null
  exit 0
fi
echo "homunculus is not installed: run 'npm install -g homunculus-memory' (or 'npm ci' in $root)." >&2
exit 1
