/**
 * Codex runs a hook from a user's or a project's hooks.json only once it is trusted: its
 * config.toml (the user's) must hold `[hooks.state."<hooks.json>:<event>:<group>:<handler>"]`
 * with `trusted_hash` equal to the hash Codex computes for that hook. Codex computes it as the
 * SHA-256 of the canonical JSON (keys sorted, compact) of the hook's normalised identity:
 * `{event_name, matcher?, hooks: [{type: "command", command, timeout, async, statusMessage?}]}`,
 * the timeout defaulting to 600 s (SessionEnd's capped at 3), the matcher kept only for events
 * that match on something. Pure.
 */
import { sha256Hex } from '../../core/sha256.js';
import { type Obj, isObj } from '../../core/fields.js';
import { isHomunculusHookCommand } from './command.js';

/** Events whose matcher Codex keeps (the others ignore it, so it is not part of their identity). */
const MATCHED_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);
/** Timeouts Codex caps, in seconds. */
const TIMEOUT_CAP: Readonly<Record<string, number>> = { SessionEnd: 3 };
const DEFAULT_TIMEOUT = 600;

/** SessionStart -> session_start: the event's name in trust keys and hashes. */
export const codexEventKey = (event: string): string => event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObj(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  return value;
}

/** The trusted_hash Codex expects for one command hook. */
export function codexHookHash(event: string, matcher: string | undefined, handler: Obj): string {
  const asked = typeof handler.timeout === 'number' ? handler.timeout : DEFAULT_TIMEOUT;
  const timeout = Math.max(1, Math.min(asked, TIMEOUT_CAP[event] ?? asked));
  const hook: Obj = { type: 'command', command: handler.command, timeout, async: handler.async === true };
  if (typeof handler.statusMessage === 'string') hook.statusMessage = handler.statusMessage;
  const identity: Obj = { event_name: codexEventKey(event), hooks: [hook] };
  if (matcher !== undefined && MATCHED_EVENTS.has(event)) identity.matcher = matcher;
  return `sha256:${sha256Hex(JSON.stringify(canonical(identity)))}`;
}

export interface TrustEntry {
  /** `<hooks.json>:<event>:<group>:<handler>`, as Codex keys hook state. */
  key: string;
  event: string;
  hash: string;
}

/** The trust entry of every hook of ours in a hooks.json (parsed), at the position Codex will see it. */
export function codexTrustEntries(settings: Obj, hooksFile: string): TrustEntry[] {
  const out: TrustEntry[] = [];
  const hooks = isObj(settings.hooks) ? settings.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObj(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      group.hooks.forEach((handler, h) => {
        if (!isObj(handler) || !isHomunculusHookCommand(handler.command)) return;
        out.push({ key: `${hooksFile}:${codexEventKey(event)}:${g}:${h}`, event, hash: codexHookHash(event, matcher, handler) });
      });
    });
  }
  return out;
}
