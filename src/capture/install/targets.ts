/**
 * Where each agent keeps its hooks and MCP servers, and which hooks Homunculus adds there.
 * Claude Code's async flags: observe, start and recall run in the
 * background; prompt and stop run in line.
 */
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { Agent, HookName } from '../agents.js';

export type Scope = 'user' | 'project';

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** Run from the home folder, a project's .codex (.claude, .gemini, .cursor) is the user-wide one: one install, not two. */
export const projectIsHome = (home: string, cwd: string): boolean => real(home) === real(cwd);

/** `--project` in the home folder would install into (or remove) the user-wide files; said, with what to run instead. */
export function refuseProjectAtHome(home: string, cwd: string): void {
  if (projectIsHome(home, cwd))
    throw new UsageError(
      `This folder is your home, so its project settings are the user-wide ones (its .claude, .codex, .gemini and .cursor folders).`,
      'Run it without --project for the user-wide hooks, or from inside a project folder.',
    );
}

/** Claude Code and Gemini CLI run one copy of a hook installed at both scopes; Codex runs both. */
export const runsEveryScope = (agent: Agent): boolean => agent === 'codex';

const BOTH_SCOPES = 'Codex runs the hooks of both ~/.codex and this project';

/** What hooks at both scopes of an agent that runs both do, and how to keep one copy. */
export function twiceAtBothScopes(): { problem: string; fix: string } {
  return {
    problem: `${BOTH_SCOPES}, so every call is recorded twice and every memory block given twice`,
    fix: 'Run `homunculus uninstall --codex --project` here to keep the user-wide hooks alone (or `homunculus uninstall --codex` to keep the project’s alone).',
  };
}

/** Installing at `scope` while `otherFile` (the other scope's hooks file) holds ours: refused, with the way to switch. */
export function secondScopeRefused(scope: Scope, otherFile: string): UsageError {
  const why = `${BOTH_SCOPES}: a second copy would record every call twice and give every memory block twice. Nothing was changed.`;
  return scope === 'project'
    ? new UsageError(
        `The user-wide Homunculus hooks for Codex (${otherFile}) already cover this project. ${why}`,
        'To install per project instead, run `homunculus uninstall --codex` first, then `homunculus init --codex --project` in each project.',
      )
    : new UsageError(
        `This project already has the Homunculus hooks for Codex (${otherFile}). ${why}`,
        'To install user-wide instead, run `homunculus uninstall --codex --project` here first (and in each other project that has them), then `homunculus init --codex`.',
      );
}

/** One hook to add: the agent event, an optional tool matcher, the hook, and its options. */
export interface HookSpec {
  event: string;
  matcher?: string;
  hook: HookName;
  async?: boolean;
  /** In the unit the agent uses (seconds for Claude Code and Codex, milliseconds for Gemini). */
  timeout?: number;
}

type McpFormat = 'claude-json' | 'json' | 'codex-toml';

export interface Target {
  agent: Agent;
  scope: Scope;
  /** The file holding the hooks. */
  hooksFile: string;
  /** 'nested' = {hooks: {Event: [{matcher, hooks: [{type, command}]}]}}; 'flat' = Cursor's {version, hooks: {event: [{command}]}}. */
  shape: 'nested' | 'flat';
  specs: HookSpec[];
  mcpFile: string;
  mcpFormat: McpFormat;
  /** Extra words after `hook <name>` (the agent flag for non-Claude agents). */
  agentFlag: string;
  /** Gemini names its hooks and counts timeouts in milliseconds. */
  named?: boolean;
  /** Codex: the user's config.toml, where hooks must be trusted before they run (whatever the scope). */
  trustFile?: string;
  /** Gemini: the user's trustedFolders.json, read (never written) to tell whether it reads a project's settings. */
  trustedFoldersFile?: string;
  /** Gemini: the user's settings.json, which a project's settings are merged over. */
  userSettingsFile?: string;
  notes: string[];
}

const CLAUDE_SPECS: HookSpec[] = [
  // Synchronous: an async hook's context may reach the model only after the first prompt.
  { event: 'SessionStart', hook: 'start', timeout: 15 },
  { event: 'UserPromptSubmit', hook: 'prompt', timeout: 15 },
  { event: 'PostToolUse', matcher: '*', hook: 'observe', async: true, timeout: 15 },
  { event: 'PostToolUse', matcher: 'Edit|Write|MultiEdit', hook: 'recall', async: true, timeout: 15 },
  { event: 'PostToolUseFailure', matcher: '*', hook: 'observe', async: true, timeout: 15 },
  { event: 'Stop', hook: 'stop', timeout: 30 },
  { event: 'SessionEnd', hook: 'stop', timeout: 30 },
];

// Codex names its edit tool apply_patch (Edit and Write are matcher aliases); it caps SessionEnd at 3 s.
const CODEX_SPECS: HookSpec[] = [
  { event: 'SessionStart', hook: 'start', timeout: 15 },
  { event: 'UserPromptSubmit', hook: 'prompt', timeout: 15 },
  { event: 'PostToolUse', hook: 'observe', timeout: 15 },
  { event: 'PostToolUse', matcher: 'apply_patch', hook: 'recall', timeout: 15 },
  { event: 'Stop', hook: 'stop', timeout: 30 },
  { event: 'SessionEnd', hook: 'stop', timeout: 3 },
];

const GEMINI_SPECS: HookSpec[] = [
  { event: 'SessionStart', hook: 'start', timeout: 15_000 },
  { event: 'BeforeAgent', hook: 'prompt', timeout: 15_000 },
  { event: 'AfterTool', matcher: '.*', hook: 'observe', timeout: 15_000 },
  { event: 'AfterTool', matcher: 'write_file|replace', hook: 'recall', timeout: 15_000 },
  { event: 'AfterAgent', hook: 'stop', timeout: 30_000 },
  { event: 'SessionEnd', hook: 'stop', timeout: 30_000 },
];

const CURSOR_SPECS: HookSpec[] = [
  { event: 'sessionStart', hook: 'start' },
  { event: 'beforeSubmitPrompt', hook: 'prompt' },
  { event: 'afterShellExecution', hook: 'observe' },
  { event: 'afterMCPExecution', hook: 'observe' },
  { event: 'afterFileEdit', hook: 'observe' },
  { event: 'afterFileEdit', hook: 'recall' },
  { event: 'stop', hook: 'stop' },
];

/** The install target of an agent in a scope; `home` is the user's home, `cwd` the project. */
export function targetFor(agent: Agent, scope: Scope, home: string, cwd: string): Target {
  const base = scope === 'user' ? home : cwd;
  switch (agent) {
    case 'claude-code':
      return {
        agent,
        scope,
        hooksFile: join(base, '.claude', 'settings.json'),
        shape: 'nested',
        specs: CLAUDE_SPECS,
        mcpFile: scope === 'user' ? join(home, '.claude.json') : join(cwd, '.mcp.json'),
        mcpFormat: scope === 'user' ? 'claude-json' : 'json',
        agentFlag: '',
        notes: scope === 'project' ? ["Claude Code asks once before it trusts the project's .mcp.json server."] : [],
      };
    case 'codex':
      return {
        agent,
        scope,
        hooksFile: join(base, '.codex', 'hooks.json'),
        shape: 'nested',
        specs: CODEX_SPECS,
        mcpFile: join(base, '.codex', 'config.toml'),
        mcpFormat: 'codex-toml',
        agentFlag: ' --agent codex',
        trustFile: join(home, '.codex', 'config.toml'),
        notes: [
          `Codex runs only hooks it trusts: their trust is written to ${join(home, '.codex', 'config.toml')} ([hooks.state]), as its /hooks screen would.`,
          ...(scope === 'project'
            ? ["Codex reads a project's .codex/ only once the project is trusted (it asks on the first run there)."]
            : []),
        ],
      };
    case 'gemini':
      return {
        agent,
        scope,
        hooksFile: join(base, '.gemini', 'settings.json'),
        shape: 'nested',
        specs: GEMINI_SPECS,
        mcpFile: join(base, '.gemini', 'settings.json'),
        mcpFormat: 'json',
        agentFlag: ' --agent gemini',
        named: true,
        trustedFoldersFile: join(home, '.gemini', 'trustedFolders.json'),
        userSettingsFile: join(home, '.gemini', 'settings.json'),
        notes:
          scope === 'project'
            ? [
                `Gemini CLI reads a project's .gemini/ only in a folder it trusts: it asks on the first interactive run there (headless runs need the folder in ${join(home, '.gemini', 'trustedFolders.json')}).`,
              ]
            : [],
      };
    case 'cursor':
      return {
        agent,
        scope,
        hooksFile: join(base, '.cursor', 'hooks.json'),
        shape: 'flat',
        specs: CURSOR_SPECS,
        mcpFile: join(base, '.cursor', 'mcp.json'),
        mcpFormat: 'json',
        agentFlag: ' --agent cursor',
        notes: ['Cursor cannot add context to a prompt; it receives session-start and recall context only.'],
      };
  }
}
