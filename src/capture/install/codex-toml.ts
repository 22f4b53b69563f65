/**
 * Codex keeps its MCP servers, feature flags and hook trust in config.toml: edited as text,
 * each addition of ours between its own markers (or one marked line inside a table the user
 * already has), so uninstall takes out exactly what init put in.
 */
import { parse } from 'smol-toml';
import { HomunculusError } from '../../core/errors.js';
import { isObj } from '../../core/fields.js';
import type { TrustEntry } from './codex-trust.js';

const MARK = '# added by homunculus';

const tomlString = (s: string): string => JSON.stringify(s);
const beginLine = (name: string): string => `# homunculus:begin${name ? ` ${name}` : ''}`;
const endLine = (name: string): string => `# homunculus:end${name ? ` ${name}` : ''}`;

/** The text without our block called `name` (whole lines between its markers). */
function removeBlock(text: string, name: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(beginLine(name));
  if (start < 0) return text;
  const end = lines.indexOf(endLine(name), start);
  lines.splice(start, (end >= 0 ? end : lines.length - 1) - start + 1);
  return lines.join('\n');
}

function appendBlock(text: string, name: string, body: readonly string[]): string {
  if (body.length === 0) return text;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  return `${text}${sep}${beginLine(name)}\n${body.join('\n').replace(/\n+$/, '')}\n${endLine(name)}\n`;
}

/** The lines of the `[features]` table (header excluded), or undefined when there is none. */
function featuresTable(text: string): string[] | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^\s*\[features\]\s*(#.*)?$/.test(l));
  if (at < 0) return undefined;
  const next = lines.findIndex((l, i) => i > at && /^\s*\[/.test(l));
  return lines.slice(at + 1, next < 0 ? undefined : next);
}

/** Whether the user already says whether hooks run (the current flag, or the deprecated codex_hooks). */
const hooksFlagSet = (text: string): boolean =>
  /^\s*features\.(?:codex_)?hooks\s*=/m.test(text) || (featuresTable(text) ?? []).some((l) => /^\s*(?:codex_)?hooks\s*=/.test(l));

/** Codex's config.toml with our MCP server and the hooks feature flag. */
export function mergeCodexToml(text: string, prefixWords: readonly string[], home?: string): string {
  const clean = removeCodexToml(text);
  const [command, ...args] = prefixWords;
  const block: string[] = [];
  let body = clean;
  if (!hooksFlagSet(body)) {
    if (featuresTable(body)) body = body.replace(/^(\s*\[features\][^\n]*)$/m, `$1\nhooks = true ${MARK}`);
    else block.push('[features]', 'hooks = true', '');
  }
  if (!/^\s*\[mcp_servers\.homunculus\]/m.test(body)) {
    block.push(
      '[mcp_servers.homunculus]',
      `command = ${tomlString(command ?? 'node')}`,
      `args = [${[...args, 'mcp'].map(tomlString).join(', ')}]`,
      ...(home ? [`env = { HOMUNCULUS_HOME = ${tomlString(home)} }`] : []),
    );
  }
  return appendBlock(body, '', block);
}

/** Refuses a config.toml that does not parse: lines appended to it would not load either, and Codex already fails on it. */
export function assertToml(file: string, text: string): void {
  try {
    parse(text);
  } catch (err) {
    const { message, line, column } = err as Error & { line?: number; column?: number };
    const where = line ? ` (line ${line}, column ${column ?? 1})` : '';
    const why = (message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    throw new HomunculusError('settings_invalid', `${file} is not valid TOML${where}: ${why}.`, {
      hint: 'Nothing was changed. Fix the syntax (Codex cannot load the file either) or move the file aside, then run the command again.',
    });
  }
}

export function removeCodexToml(text: string): string {
  return removeBlock(text, '')
    .split('\n')
    .filter((l) => !l.endsWith(MARK))
    .join('\n');
}

const trustBlock = (hooksFile: string): string => `trust ${hooksFile}`;

/** The hook states the user's own text defines (outside our blocks), by key; none when it does not parse. */
export function userHookStates(text: string): Record<string, { trusted_hash?: unknown; enabled?: unknown }> {
  let parsed: unknown;
  try {
    parsed = parse(text.replace(/^# homunculus:begin[^\n]*\n[\s\S]*?^# homunculus:end[^\n]*$/gm, ''));
  } catch {
    return {};
  }
  const state = isObj(parsed) && isObj(parsed.hooks) && isObj(parsed.hooks.state) ? parsed.hooks.state : {};
  return Object.fromEntries(Object.entries(state).filter(([, v]) => isObj(v))) as Record<string, { trusted_hash?: unknown }>;
}

/**
 * The user's config.toml trusting our hooks of one hooks.json. A key the user already set
 * (with Codex's /hooks screen) is left to them: defining it twice would break the file.
 * Returns the keys left alone whose hash is not the one we would write.
 */
export function mergeCodexTrust(text: string, hooksFile: string, entries: readonly TrustEntry[]): { text: string; conflicts: string[] } {
  const clean = removeBlock(text, trustBlock(hooksFile));
  const theirs = userHookStates(clean);
  const conflicts: string[] = [];
  const body: string[] = [];
  for (const e of entries) {
    const existing = theirs[e.key];
    if (existing) {
      if (existing.trusted_hash !== e.hash) conflicts.push(e.key);
      continue;
    }
    body.push(`[hooks.state.${tomlString(e.key)}]`, `trusted_hash = ${tomlString(e.hash)}`);
  }
  return { text: appendBlock(clean, trustBlock(hooksFile), body), conflicts };
}

export const removeCodexTrust = (text: string, hooksFile: string): string => removeBlock(text, trustBlock(hooksFile));
