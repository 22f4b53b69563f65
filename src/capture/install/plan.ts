/**
 * `init --claude | --project | --codex | --gemini | --cursor` and `uninstall`: planning the
 * edits to an agent's settings files and showing them as a diff, all in memory (apply.ts
 * writes them). Uninstall removes exactly what was added and, when nothing else changed
 * since, gives back the original bytes (formatting included).
 */
import { formatDiff } from '../../core/diff.js';
import { assertToml, mergeCodexToml, mergeCodexTrust, removeCodexToml, removeCodexTrust } from './codex-toml.js';
import { codexTrustEntries } from './codex-trust.js';
import { commandWords } from './command.js';
import { mergeHooks, removeHooks } from './hook-settings.js';
import { type Json, parseJsonFile, readText, sameJson, serialise } from './json-file.js';
import { mcpEntry, mergeMcp, removeMcp } from './mcp-settings.js';
import type { InstallState } from './state.js';
import type { Target } from './targets.js';

type FileAction = 'create' | 'update' | 'unchanged' | 'remove' | 'restore';

export interface FileChange {
  file: string;
  action: FileAction;
  before: string | undefined;
  after: string | undefined;
  diff: string;
}

export interface Plan {
  target: Target;
  changes: FileChange[];
  warnings: string[];
}

const isEmptySettings = (value: Json): boolean =>
  Object.keys(value).filter((k) => !(k === 'version' && value.version === 1) && !(k === 'hooks' && JSON.stringify(value.hooks) === '{}'))
    .length === 0;

function change(file: string, before: string | undefined, after: string | undefined): FileChange {
  let action: FileAction;
  if (after === undefined) action = before === undefined ? 'unchanged' : 'remove';
  else if (before === undefined) action = 'create';
  else action = before === after ? 'unchanged' : 'update';
  return { file, action, before, after, diff: action === 'unchanged' ? '' : formatDiff(before ?? '', after ?? '', file) };
}

type Edit = { json: (value: Json, file: string) => Json } | { text: (text: string) => string };

/** Applies edits to each file in memory (files shared by hooks and MCP get both). */
function planEdits(edits: Map<string, Edit[]>, uninstall?: InstallState): FileChange[] {
  const out: FileChange[] = [];
  for (const [file, list] of edits) {
    const before = readText(file);
    let after: string | undefined;
    if (list.every((e) => 'text' in e)) {
      // Installing into a config.toml that does not parse would append to a file nobody can load.
      if (!uninstall && before !== undefined && file.endsWith('.toml')) assertToml(file, before);
      after = list.reduce((t, e) => ('text' in e ? e.text(t) : t), before ?? '');
      if (before === undefined && after === '') after = undefined;
      else if (uninstall && after.trim() === '' && uninstall.get(file)?.created) after = undefined;
    } else {
      const value = list.reduce((v, e) => ('json' in e ? e.json(v, file) : v), parseJsonFile(file, before));
      after = serialise(value, before);
      if (before === undefined && uninstall) after = undefined;
      else if (uninstall && isEmptySettings(value) && uninstall.get(file)?.created) after = undefined;
    }
    if (uninstall && after !== undefined && before !== undefined) {
      // Nothing else changed since install: give back the original bytes.
      const original = uninstall.get(file)?.original;
      if (original !== undefined && sameJson(after, original)) after = original;
    }
    // An edit that changes nothing leaves the file's bytes (and formatting) alone.
    if (after !== undefined && before !== undefined && sameJson(after, before)) after = before;
    out.push(change(file, before, after));
  }
  return out;
}

/**
 * Codex: trust for exactly the hooks of ours the merged hooks.json will hold, at their
 * positions there. A hook the user trusted otherwise is left to them, with the one fix.
 */
function trustEdit(target: Target, prefix: string, warnings: string[], home?: string): Edit {
  const merged = mergeHooks(parseJsonFile(target.hooksFile, readText(target.hooksFile)), target, prefix, target.hooksFile, home);
  const entries = codexTrustEntries(merged, target.hooksFile);
  return {
    text: (t) => {
      const r = mergeCodexTrust(t, target.hooksFile, entries);
      if (r.conflicts.length)
        warnings.push(
          `${target.trustFile} already holds another trust for ${r.conflicts.length} of our hooks (${r.conflicts.join(', ')}); ` +
            'Codex skips them until you trust them again: run `codex`, open /hooks and trust the Homunculus hooks.',
        );
      return r.text;
    },
  };
}

/** `home`: set when the store is not where a hook would find it by itself (`init --home DIR`). */
export function planInstall(target: Target, prefix: string, options: { mcp?: boolean; home?: string } = {}): Plan {
  const words = commandWords(prefix);
  const edits = new Map<string, Edit[]>();
  const add = (file: string, edit: Edit): void => void edits.set(file, [...(edits.get(file) ?? []), edit]);
  const warnings: string[] = [];
  const home = options.home;
  add(target.hooksFile, { json: (v, f) => mergeHooks(v, target, prefix, f, home) });
  if (target.trustFile) add(target.trustFile, trustEdit(target, prefix, warnings, home));
  if (options.mcp !== false) {
    if (target.mcpFormat === 'codex-toml') add(target.mcpFile, { text: (t) => mergeCodexToml(t, words, home) });
    else {
      const entry = mcpEntry(words, target.mcpFormat, home);
      add(target.mcpFile, {
        json: (v, f) => {
          const r = mergeMcp(v, entry, f);
          if (r.conflict) warnings.push(`${f} already has an MCP server named "homunculus" that is not this one; left as it is.`);
          return r.settings;
        },
      });
    }
  }
  return { target, changes: planEdits(edits), warnings };
}

export function planUninstall(target: Target, state: InstallState): Plan {
  const edits = new Map<string, Edit[]>();
  const add = (file: string, edit: Edit): void => void edits.set(file, [...(edits.get(file) ?? []), edit]);
  add(target.hooksFile, { json: (v) => removeHooks(v, target).settings });
  if (target.trustFile) add(target.trustFile, { text: (t) => removeCodexTrust(t, target.hooksFile) });
  if (target.mcpFormat === 'codex-toml') add(target.mcpFile, { text: (t) => removeCodexToml(t) });
  else add(target.mcpFile, { json: (v) => removeMcp(v).settings });
  const changes = planEdits(edits, state).map((c) =>
    c.action === 'update' && c.after === state.get(c.file)?.original ? { ...c, action: 'restore' as const } : c,
  );
  return { target, changes, warnings: [] };
}
