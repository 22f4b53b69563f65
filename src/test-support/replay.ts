/**
 * Replaying Claude Code transcripts through the hooks exactly as the plugin's
 * hooks/hooks.json declares them: in process (the same runHook the hook process runs) for
 * the whole corpus, or as real processes for a sample.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookName } from '../capture/agents.js';
import { type HookOutcome, runHook } from '../hooks/run.js';
import { type TranscriptEvent, TranscriptReplay } from '../capture/transcript/replay.js';
import type { Store } from '../store/store.js';
import { REPO_ROOT } from './cli.js';

interface DeclaredHook {
  event: string;
  matcher?: string;
  command: string;
  hook: HookName;
  async: boolean;
}

/** Every hook command of hooks/hooks.json. */
export function pluginHooks(): DeclaredHook[] {
  const doc = JSON.parse(readFileSync(join(REPO_ROOT, 'hooks', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, { matcher?: string; hooks: { command: string; async?: boolean }[] }[]>;
  };
  return Object.entries(doc.hooks).flatMap(([event, groups]) =>
    groups.flatMap((g) =>
      g.hooks.map((h) => ({
        event,
        ...(g.matcher !== undefined ? { matcher: g.matcher } : {}),
        command: h.command,
        hook: (/\bhook (\w+)\s*$/.exec(h.command)?.[1] ?? '') as HookName,
        async: h.async === true,
      })),
    ),
  );
}

/** The declared hooks an event fires: matchers are anchored regular expressions over the tool name, '*' or '' for all. */
function hooksFor(declared: readonly DeclaredHook[], event: string, toolName?: string): DeclaredHook[] {
  return declared.filter((d) => {
    if (d.event !== event) return false;
    if (d.matcher === undefined || d.matcher === '*' || d.matcher === '' || toolName === undefined) return true;
    return new RegExp(`^(?:${d.matcher})$`).test(toolName);
  });
}

/** A transcript's hook events, as Claude Code would have sent them. */
export function transcriptHookEvents(file: string): (TranscriptEvent & { hook: HookName })[] {
  const replay = new TranscriptReplay(file);
  const out: TranscriptEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) out.push(...replay.feed(line));
  out.push(...replay.finish());
  // What the agent wrote reaches no hook: only the import reads it.
  return out.filter((e): e is TranscriptEvent & { hook: HookName } => e.hook !== 'answer');
}

export interface ReplayRecord {
  event: string;
  hook: HookName;
  toolUseId?: string;
  toolName?: string;
  outcome: HookOutcome;
}

/** Replays events in process through runHook, every declared hook of each event in turn. */
export async function replayInProcess(
  events: readonly TranscriptEvent[],
  declared: readonly DeclaredHook[],
  options: { home: string; store?: Store; env: NodeJS.ProcessEnv },
): Promise<ReplayRecord[]> {
  const out: ReplayRecord[] = [];
  for (const e of events) {
    const event = String(e.payload.hook_event_name);
    const toolName = typeof e.payload.tool_name === 'string' ? e.payload.tool_name : undefined;
    const raw = JSON.stringify(e.payload);
    for (const d of hooksFor(declared, event, toolName)) {
      const outcome = await runHook(d.hook, raw, {
        home: options.home,
        env: options.env,
        ...(options.store ? { store: options.store } : {}),
      });
      out.push({ event, hook: d.hook, ...(toolName ? { toolName, toolUseId: String(e.payload.tool_use_id) } : {}), outcome });
    }
  }
  return out;
}

interface ProcessRun {
  event: string;
  command: string;
  status: number;
  stdout: string;
  stderr: string;
}

/** Replays events as real hook processes: `sh -c <command>` with CLAUDE_PLUGIN_ROOT set, payload on stdin. */
export function replayAsProcesses(
  events: readonly TranscriptEvent[],
  declared: readonly DeclaredHook[],
  env: NodeJS.ProcessEnv,
): ProcessRun[] {
  const out: ProcessRun[] = [];
  for (const e of events) {
    const event = String(e.payload.hook_event_name);
    const toolName = typeof e.payload.tool_name === 'string' ? e.payload.tool_name : undefined;
    for (const d of hooksFor(declared, event, toolName)) {
      const r = spawnSync('sh', ['-c', d.command], {
        input: JSON.stringify(e.payload),
        env: { ...env, CLAUDE_PLUGIN_ROOT: REPO_ROOT },
        encoding: 'utf8',
      });
      out.push({ event, command: d.command, status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
    }
  }
  return out;
}
