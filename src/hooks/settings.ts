/**
 * Merging Homunculus's hooks and MCP server into an agent's settings, and taking exactly
 * them out again. Pure functions over parsed JSON (and Codex's TOML text): every setting
 * and hook that is not ours is kept as it is, and a second merge changes nothing.
 */
import { HomunculusError } from '../core/errors.js';
import { isHomunculusHookCommand } from './entry.js';
import type { HookSpec, Target } from './targets.js';

export type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export const MCP_NAME = 'homunculus';

function invalid(file: string, what: string): HomunculusError {
  return new HomunculusError('settings_invalid', `${file}: ${what}`, {
    hint: 'Nothing was changed. Fix the file by hand (or move it aside) and run the command again.',
  });
}

/** Our hook entry as the agent's format wants it. */
function hookEntry(target: Target, spec: HookSpec, prefix: string): Json {
  const command = `${prefix} hook ${spec.hook}${target.agentFlag}`;
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
export function mergeHooks(settings: Json, target: Target, prefix: string, file: string): Json {
  const out = structuredClone(settings);
  if (out.hooks !== undefined && !isObj(out.hooks)) throw invalid(file, '"hooks" is not an object');
  const hooks = (out.hooks as Json | undefined) ?? {};
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) throw invalid(file, `hooks.${event} is not a list`);
  }
  stripOurs(hooks, target);
  for (const spec of target.specs) {
    const list = (hooks[spec.event] as unknown[] | undefined) ?? [];
    const entry = hookEntry(target, spec, prefix);
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

/** Our MCP server entry: `node bin.js mcp`. */
export function mcpEntry(prefixWords: readonly string[], format: 'claude-json' | 'json'): Json {
  const [command, ...args] = prefixWords;
  return { ...(format === 'claude-json' ? { type: 'stdio' } : {}), command, args: [...args, 'mcp'] };
}

/** An entry `init` wrote: `<node> <.../cli/bin.js> mcp`, or `homunculus mcp` with --command homunculus. Nothing else. */
const isOurServer = (entry: unknown): boolean => {
  if (!isObj(entry) || !Array.isArray(entry.args) || entry.args[entry.args.length - 1] !== 'mcp') return false;
  const words = [String(entry.command), ...entry.args.slice(0, -1).map(String)];
  return words.some((w) => /\/cli\/bin\.js$/.test(w)) || /(?:^|\/)homunculus$/.test(words[words.length - 1] ?? '');
};

/** Adds mcpServers.homunculus; a different server already under that name is left alone. */
export function mergeMcp(settings: Json, entry: Json, file: string): { settings: Json; conflict: boolean } {
  const out = structuredClone(settings);
  if (out.mcpServers !== undefined && !isObj(out.mcpServers)) throw invalid(file, '"mcpServers" is not an object');
  const servers = (out.mcpServers as Json | undefined) ?? {};
  const existing = servers[MCP_NAME];
  if (existing !== undefined && !isOurServer(existing)) return { settings: out, conflict: true };
  servers[MCP_NAME] = entry;
  out.mcpServers = servers;
  return { settings: out, conflict: false };
}

export function removeMcp(settings: Json): { settings: Json; changed: boolean } {
  const out = structuredClone(settings);
  if (!isObj(out.mcpServers) || !isOurServer(out.mcpServers[MCP_NAME])) return { settings: out, changed: false };
  delete out.mcpServers[MCP_NAME];
  if (Object.keys(out.mcpServers).length === 0) delete out.mcpServers;
  return { settings: out, changed: true };
}

const BEGIN = '# homunculus:begin';
const END = '# homunculus:end';
const MARK = '# added by homunculus';

const tomlString = (s: string): string => JSON.stringify(s);

/** Codex's config.toml with our MCP server and the hooks feature flag (text edits between markers). */
export function mergeCodexToml(text: string, prefixWords: readonly string[]): string {
  const clean = removeCodexToml(text);
  const [command, ...args] = prefixWords;
  const block: string[] = [];
  let body = clean;
  if (!/^\s*codex_hooks\s*=/m.test(body)) {
    if (/^\s*\[features\]\s*$/m.test(body)) body = body.replace(/^(\s*\[features\]\s*)$/m, `$1\ncodex_hooks = true ${MARK}`);
    else block.push('[features]', 'codex_hooks = true', '');
  }
  if (!/^\s*\[mcp_servers\.homunculus\]/m.test(body)) {
    block.push(
      '[mcp_servers.homunculus]',
      `command = ${tomlString(command ?? 'node')}`,
      `args = [${[...args, 'mcp'].map(tomlString).join(', ')}]`,
    );
  }
  if (block.length === 0) return body;
  const sep = body === '' || body.endsWith('\n') ? '' : '\n';
  return `${body}${sep}${BEGIN}\n${block.join('\n').replace(/\n+$/, '')}\n${END}\n`;
}

export function removeCodexToml(text: string): string {
  const start = text.indexOf(BEGIN);
  let out = text;
  if (start >= 0) {
    const end = text.indexOf(END, start);
    const stop = end >= 0 ? end + END.length + (text[end + END.length] === '\n' ? 1 : 0) : text.length;
    out = text.slice(0, start) + text.slice(stop);
  }
  return out
    .split('\n')
    .filter((l) => !l.endsWith(MARK))
    .join('\n');
}
