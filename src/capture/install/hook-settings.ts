/**
 * Merging Homunculus's hooks into an agent's settings, and taking exactly them out again.
 * Pure functions over parsed JSON: every setting and hook that is not ours is kept as it
 * is, and a second merge changes nothing.
 */
import { homeFlag, isHomunculusHookCommand } from './command.js';
import { isObj } from '../../core/fields.js';
import { type Json, invalid } from './json-file.js';
import type { HookSpec, Target } from './targets.js';

/** Our hook entry as the agent's format wants it. */
function hookEntry(target: Target, spec: HookSpec, prefix: string, home?: string): Json {
  const command = `${prefix} hook ${spec.hook}${target.agentFlag}${homeFlag(home)}`;
  if (target.shape === 'flat') return { command };
  return {
    ...(target.named ? { name: `homunculus-${spec.hook}` } : {}),
    type: 'command',
    command,
    ...(spec.async ? { async: true } : {}),
    ...(spec.timeout !== undefined ? { timeout: spec.timeout } : {}),
  };
}

const isOurEntry = (entry: unknown): boolean => isObj(entry) && isHomunculusHookCommand(entry.command);

/** Removes our entries from a hooks map; groups and events we emptied go too. Returns whether anything went. */
function stripOurs(hooks: Json, target: Target): boolean {
  let changed = false;
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) continue;
    let eventChanged = false;
    const kept: unknown[] = [];
    for (const group of value) {
      if (target.shape === 'flat' || !isObj(group) || !Array.isArray(group.hooks)) {
        if (target.shape === 'flat' && isOurEntry(group)) eventChanged = true;
        else kept.push(group);
        continue;
      }
      const inner = group.hooks.filter((h) => !isOurEntry(h));
      if (inner.length === group.hooks.length) {
        kept.push(group);
        continue;
      }
      eventChanged = true;
      if (inner.length) kept.push({ ...group, hooks: inner });
    }
    if (!eventChanged) continue;
    changed = true;
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  return changed;
}

/** Settings with our hooks merged in (replacing any older copy of ours). */
export function mergeHooks(settings: Json, target: Target, prefix: string, file: string, home?: string): Json {
  const out = structuredClone(settings);
  if (out.hooks !== undefined && !isObj(out.hooks)) throw invalid(file, '"hooks" is not an object');
  const hooks = (out.hooks as Json | undefined) ?? {};
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) throw invalid(file, `hooks.${event} is not a list`);
  }
  stripOurs(hooks, target);
  for (const spec of target.specs) {
    const list = (hooks[spec.event] as unknown[] | undefined) ?? [];
    const entry = hookEntry(target, spec, prefix, home);
    if (target.shape === 'flat') list.push(entry);
    else list.push({ ...(spec.matcher !== undefined ? { matcher: spec.matcher } : {}), hooks: [entry] });
    hooks[spec.event] = list;
  }
  out.hooks = hooks;
  if (target.shape === 'flat' && out.version === undefined) out.version = 1;
  return out;
}

/** Settings without our hooks; `hooks` itself goes when nothing else was in it. */
export function removeHooks(settings: Json, target: Target): { settings: Json; changed: boolean } {
  const out = structuredClone(settings);
  if (!isObj(out.hooks)) return { settings: out, changed: false };
  const changed = stripOurs(out.hooks, target);
  if (changed && Object.keys(out.hooks).length === 0) delete out.hooks;
  return { settings: out, changed };
}
