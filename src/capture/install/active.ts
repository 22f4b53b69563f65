/**
 * Whether each client will really run the hooks we installed, asked the way the client
 * decides it: Codex through `codex app-server` (hooks/list: trusted, untrusted, modified,
 * disabled), or, without a codex binary, from its config.toml computed the same way; Gemini
 * CLI and Claude Code from the switches in their settings. Each problem says how to fix it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isInside, realDirectory } from '../../core/confine.js';
import { assertToml } from './codex-toml.js';
import { type CodexHook, listCodexHooks } from './codex-app-server.js';
import { codexTrustEntries } from './codex-trust.js';
import { findOnPath } from './command.js';
import { claudeProjectSettings, decidingSetting, readObj, sub } from './settings-files.js';
import type { Target } from './targets.js';

export interface Inactive {
  problem: string;
  fix: string;
  /** The client loads none of the file's hooks (not merely skips some). */
  unloaded?: boolean;
}

/** Our hooks as Codex would see them, from its config.toml: the same hashes, compared with the trust it holds. */
function codexHooksFromConfig(target: Target): CodexHook[] {
  const states = sub(sub(readObj(target.trustFile ?? '', 'toml'), 'hooks'), 'state');
  return codexTrustEntries(readObj(target.hooksFile, 'json'), target.hooksFile).map((e) => {
    const state = sub(states, e.key);
    const trust = state.trusted_hash === undefined ? 'untrusted' : state.trusted_hash === e.hash ? 'trusted' : 'modified';
    return { key: e.key, event: e.event, trustStatus: trust, enabled: state.enabled !== false };
  });
}

/** Why a config.toml that does not parse stops Codex, or undefined when it parses (or is not there). */
function brokenToml(file: string | undefined): Inactive | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    assertToml(file, readFileSync(file, 'utf8'));
    return undefined;
  } catch (err) {
    return {
      unloaded: true,
      problem: (err as Error).message,
      fix: `Fix that line of ${file}: Codex does not start while it fails to parse.`,
    };
  }
}

async function codexInactive(target: Target, cwd: string, env: NodeJS.ProcessEnv): Promise<Inactive[]> {
  const broken = brokenToml(target.trustFile);
  if (broken) return [broken];
  const out: Inactive[] = [];
  const features = sub(readObj(target.trustFile ?? '', 'toml'), 'features');
  if (features.hooks === false || features.codex_hooks === false)
    out.push({ problem: 'Codex hooks are turned off in config.toml ([features])', fix: 'Remove `hooks = false` under [features].' });
  const bin = findOnPath('codex', env.PATH);
  const listed = bin ? await listCodexHooks(bin, cwd, env) : undefined;
  const ours = codexHooksFromConfig(target);
  const seen = listed
    ? ours.map((o) => {
        const l = listed.find((x) => x.key === o.key);
        return l && { ...l, event: o.event };
      })
    : ours;
  // Codex reads hooks.json strictly: a key of the user's beside "hooks" makes it load none of them.
  const extra = Object.keys(readObj(target.hooksFile, 'json'))
    .filter((k) => k !== 'hooks')
    .map((k) => JSON.stringify(k))
    .join(', ');
  if (listed && seen.every((s) => s === undefined) && ours.length)
    out.push(
      extra
        ? {
            unloaded: true,
            problem: `Codex does not load ${target.hooksFile}: it refuses ${extra} beside "hooks"`,
            fix: `Remove ${extra} from ${target.hooksFile} (Codex reads only "hooks" there).`,
          }
        : {
            unloaded: true,
            problem: `Codex does not load ${target.hooksFile}${target.scope === 'project' ? ' (the project is not trusted)' : ''}`,
            fix:
              target.scope === 'project'
                ? `Run \`codex\` in ${cwd} once and trust the project (or add [projects.${JSON.stringify(cwd)}] trust_level = "trusted" to ${target.trustFile}).`
                : 'Run `homunculus init --codex` again.',
          },
    );
  const idle = seen.filter((s): s is CodexHook => s !== undefined && (s.trustStatus !== 'trusted' || !s.enabled));
  if (idle.length)
    out.push({
      problem: `Codex skips ${idle.length} of our ${ours.length} hooks (${idle.map((s) => `${s.event} ${s.enabled ? s.trustStatus : 'disabled'}`).join(', ')})${listed ? '' : ' per config.toml'}`,
      fix: `Run \`homunculus init --codex${target.scope === 'project' ? ' --project' : ''}\` again to trust them (or trust them in Codex's /hooks screen).`,
    });
  return out;
}

/** Whether Gemini CLI trusts `cwd`, as it decides: the longest rule of trustedFolders.json that holds the folder. */
function geminiTrusts(cwd: string, target: Target, env: NodeJS.ProcessEnv): boolean {
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return true;
  const rules = readObj(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ?? target.trustedFoldersFile ?? '', 'json');
  let best: { length: number; trusted: boolean } | undefined;
  for (const [path, level] of Object.entries(rules)) {
    const named = level === 'TRUST_PARENT' ? dirname(path) : path;
    const folder = realDirectory(named) ?? named;
    if (!isInside(cwd, folder)) continue;
    if (!best || path.length > best.length) best = { length: path.length, trusted: level === 'TRUST_FOLDER' || level === 'TRUST_PARENT' };
  }
  return best?.trusted === true;
}

function geminiInactive(target: Target, cwd: string, env: NodeJS.ProcessEnv): Inactive[] {
  // A project's settings are merged over the user's: either may say what the other leaves out.
  const user = target.scope === 'project' && target.userSettingsFile ? readObj(target.userSettingsFile, 'json') : {};
  const settings = readObj(target.hooksFile, 'json');
  const folderTrust = sub(sub(user, 'security'), 'folderTrust').enabled !== false;
  if (target.scope === 'project' && folderTrust && !geminiTrusts(realDirectory(cwd) ?? cwd, target, env))
    return [
      {
        unloaded: true,
        problem: `Gemini CLI does not read ${target.hooksFile}: the folder is not trusted`,
        fix: `Run \`gemini\` in ${cwd} once and trust the folder (or add ${JSON.stringify({ [cwd]: 'TRUST_FOLDER' })} to ${target.trustedFoldersFile ?? 'trustedFolders.json'}).`,
      },
    ];
  const config = sub(settings, 'hooksConfig');
  const out: Inactive[] = [];
  if (config.enabled === false || sub(settings, 'tools').enableHooks === false)
    out.push({ problem: `Gemini CLI hooks are turned off in ${target.hooksFile}`, fix: 'Set "hooksConfig": {"enabled": true}.' });
  const disabled = Array.isArray(config.disabled)
    ? config.disabled.filter((n) => typeof n === 'string' && n.startsWith('homunculus-'))
    : [];
  if (disabled.length)
    out.push({ problem: `Gemini CLI has our hooks disabled (${disabled.join(', ')})`, fix: 'Remove them from hooksConfig.disabled.' });
  const authType = (o: Record<string, unknown>) => sub(sub(o, 'security'), 'auth').selectedType;
  if (env.GOOGLE_GEMINI_BASE_URL && authType(settings) === undefined && authType(user) === undefined)
    out.push({
      problem: 'GOOGLE_GEMINI_BASE_URL is set but Gemini CLI has no auth type, so it stops before any hook runs',
      fix: 'Set "security": {"auth": {"selectedType": "gemini-api-key"}} in settings.json (headless runs also need --skip-trust in an untrusted folder).',
    });
  return out;
}

/** Why the client would not run our hooks of this target; empty when it will. */
export async function inactiveHooks(target: Target, cwd: string, env: NodeJS.ProcessEnv): Promise<Inactive[]> {
  if (target.agent === 'codex') return codexInactive(target, cwd, env);
  if (target.agent === 'gemini') return geminiInactive(target, cwd, env);
  if (target.agent === 'claude-code') {
    // The most specific settings file that says decides: the project's local, the project's, the user's.
    const said = decidingSetting([...claudeProjectSettings(cwd), target.hooksFile], (o) => o.disableAllHooks);
    if (said?.value)
      return [
        {
          problem: `Claude Code has every hook turned off (disableAllHooks in ${said.file})`,
          fix: `Remove "disableAllHooks" from ${said.file}.`,
        },
      ];
  }
  return [];
}
