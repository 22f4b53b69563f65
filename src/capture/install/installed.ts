/** What an agent's settings file holds of ours now: the hook commands, and the paths they run that are gone. */
import { existsSync, readFileSync } from 'node:fs';
import { commandWords, isHomunculusHookCommand } from './command.js';
import type { Target } from './targets.js';

/** Every hook command of ours in a settings file, with the hook events they sit under. */
export function installedCommands(target: Target): { event: string; command: string }[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(target.hooksFile, 'utf8'));
  } catch {
    return [];
  }
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const out: { event: string; command: string }[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const entries =
        target.shape === 'flat'
          ? [group]
          : Array.isArray((group as { hooks?: unknown })?.hooks)
            ? (group as { hooks: unknown[] }).hooks
            : [];
      for (const e of entries) {
        const command = (e as { command?: unknown } | null)?.command;
        if (isHomunculusHookCommand(command)) out.push({ event, command: command as string });
      }
    }
  }
  return out;
}

/** Paths a hook command runs (its interpreter and script) that do not exist. */
export function missingPaths(command: string): string[] {
  return commandWords(command)
    .filter((w) => w.startsWith('/') && (w.endsWith('.js') || /\/node[^/]*$/.test(w)))
    .filter((w) => !existsSync(w));
}
