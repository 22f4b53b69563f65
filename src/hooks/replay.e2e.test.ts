/**
 * Acceptance: every session of ../shared/data/claude-code-transcripts replayed through the
 * hooks exactly as the plugin's hooks/hooks.json declares them, from a copy with secrets
 * planted in commands, descriptions, prompts, patterns and error texts. The whole corpus
 * runs in process through runHook (what the hook process runs); a sample runs as real
 * processes and must store exactly the same rows.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObservationRow } from '../store/observations.js';
import { openStore, type Store } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { TRANSCRIPTS, hasShared } from '../test-support/shared.js';
import { type ReplayRecord, pluginHooks, replayAsProcesses, replayInProcess, transcriptHookEvents } from '../test-support/replay.js';
import { targetFor } from '../capture/install/targets.js';

const CORPUS = TRANSCRIPTS;
const piece = (...p: string[]): string => p.join('');

/** Secrets to plant, each with the part that must never be stored. */
const SECRETS: { text: string; needle: string }[] = [
  { text: piece('ghp_', 'Q7w8E9r0T1y2U3i4O5p6A7s8D9f0G1h2J3k4'), needle: piece('Q7w8E9r0T1y2U3i4O5p6A7s8D9f0') },
  { text: piece('AKIA', 'ZQXWVUTSRQPONMLK'), needle: piece('AKIA', 'ZQXWVUTSRQPONMLK') },
  { text: `password=${piece('Sup3r', 'S3cret', '!x')}`, needle: piece('Sup3r', 'S3cret') },
  { text: `postgres://app:${piece('Pg-', 'S3cret-99')}@db.internal/app`, needle: piece('Pg-', 'S3cret') },
  { text: `Authorization: Bearer ${piece('tok', 'Zx81Lm02Qa93Ws74Ed')}`, needle: piece('Zx81Lm02Qa93Ws74Ed') },
  { text: piece('sk-ant-', 'api03-', 'Hh7Jj8Kk9Ll0Mm1Nn2Bb3Vv4Cc5'), needle: piece('Hh7Jj8Kk9Ll0Mm1Nn2Bb3') },
  {
    text: piece('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJ1c2VyIjoiYm9iIiwicm9sZSI6ImFkbWluIn0', '.', 'c2lnbmF0dXJlLXNlY3JldC14eXo'),
    needle: 'c2lnbmF0dXJlLXNlY3JldC14eXo',
  },
  { text: `echo "DB_HOST=${piece('internal-', 'host-7731')}" >> .env`, needle: piece('internal-', 'host-7731') },
  {
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${piece('b3BlbnNzaC1rZXktdjEAAAA', 'BG5vbmUAAAAEbm9uZQ')}\n-----END OPENSSH PRIVATE KEY-----`,
    needle: piece('b3BlbnNzaC1rZXktdjEAAAA'),
  },
];

type Obj = Record<string, unknown>;

/** Copies the corpus into `dir`, planting secrets; returns the tool_use ids that have a result. */
function plantedCopy(dir: string): { files: string[]; toolIds: Map<string, string> } {
  let n = 0;
  const next = (): string => (SECRETS[n++ % SECRETS.length] as { text: string }).text;
  const toolIds = new Map<string, string>();
  const files: string[] = [];
  for (const name of readdirSync(CORPUS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const uses = new Map<string, string>();
    const out: string[] = [];
    let count = 0;
    for (const line of readFileSync(join(CORPUS, name), 'utf8').split('\n')) {
      let r: Obj;
      try {
        r = JSON.parse(line) as Obj;
      } catch {
        out.push(line);
        continue;
      }
      const message = r.message as Obj | undefined;
      if (r.type === 'assistant' && Array.isArray(message?.content)) {
        for (const b of message.content as Obj[]) {
          if (b.type !== 'tool_use') continue;
          uses.set(String(b.id), String(b.name));
          const input = (b.input ?? {}) as Obj;
          count++;
          if (b.name === 'Bash' && count % 4 === 0) input.command = `${String(input.command)} && ${next()}`;
          if (b.name === 'Bash' && count % 9 === 0) input.description = `uses ${next()}`;
          if (b.name === 'Grep' && count % 5 === 0) input.pattern = next();
          if (b.name === 'Task') input.prompt = `${String(input.prompt)} ${next()}`;
        }
      }
      if (r.type === 'user' && typeof message?.content === 'string' && !r.isMeta && count % 2 === 0)
        message.content = `${message.content} (${next()})`;
      if (r.type === 'user' && Array.isArray(message?.content)) {
        for (const b of message.content as Obj[]) {
          if (b.type !== 'tool_result') continue;
          if (uses.has(String(b.tool_use_id))) toolIds.set(String(b.tool_use_id), uses.get(String(b.tool_use_id)) as string);
          if (b.is_error === true) b.content = `${typeof b.content === 'string' ? b.content : 'Exit code 1'}\nerror: rejected ${next()}`;
        }
      }
      out.push(JSON.stringify(r));
    }
    const path = join(dir, name);
    writeFileSync(path, out.join('\n'));
    files.push(path);
  }
  return { files, toolIds };
}

const ENV = { HOMUNCULUS_NO_LEARN: '1' } as NodeJS.ProcessEnv;

function validOutput(stdout: string): boolean {
  if (stdout.trim() === '') return true;
  const value = JSON.parse(stdout) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } };
  return typeof value.hookSpecificOutput?.additionalContext === 'string' && value.hookSpecificOutput.additionalContext.length <= 10_000;
}

/** Rendered session files, live and archived (sessions older than 30 days). */
function sessionFiles(store: Store): string[] {
  return readdirSync(store.paths.sessions, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(store.paths.sessions, f));
}

/** The session ids the transcripts replay: every observation and session stored belongs to one of them. */
function sessionIds(files: readonly string[]): string[] {
  return [...new Set(files.flatMap((f) => transcriptHookEvents(f).map((e) => String(e.payload.session_id))))].sort();
}

/** Every observation of these sessions, checked to be every observation stored. */
function storedObservations(store: Store, ids: readonly string[]): ObservationRow[] {
  const rows = ids.flatMap((id) => store.observations.forSession(id));
  expect(rows).toHaveLength(store.observations.count());
  return rows;
}

function allStoredText(store: Store, ids: readonly string[]): string {
  const rows = storedObservations(store, ids).map(({ tool, intent, input, files, error, data, cwd }) => ({
    tool,
    intent,
    input,
    files,
    error,
    data,
    cwd,
  }));
  const sessions = ids
    .map((id) => store.sessions.get(id))
    .map((s) => ({ summary: s?.summary, files_touched: s?.files_touched, tools_used: s?.tools_used }));
  const md = sessionFiles(store).map((f) => readFileSync(f, 'utf8'));
  const logs = existsSync(store.paths.logs)
    ? readdirSync(store.paths.logs).map((f) => readFileSync(join(store.paths.logs, f), 'utf8'))
    : [];
  return [...rows.map((r) => JSON.stringify(r)), ...sessions.map((s) => JSON.stringify(s)), ...md, ...logs].join('\n');
}

describe.runIf(hasShared('replaying the transcript corpus through the hooks'))(
  'replaying the transcript corpus through the plugin hooks',
  () => {
    const tmp = tempDir('hom-replay-');
    let copy: ReturnType<typeof plantedCopy>;
    const declared = pluginHooks();

    beforeAll(() => {
      mkdirSync(join(tmp.path, 'corpus'));
      copy = plantedCopy(join(tmp.path, 'corpus'));
    });
    afterAll(() => tmp.cleanup());

    it('declares the same hooks as `init --claude` installs', () => {
      const specs = targetFor('claude-code', 'user', '/h', '/p').specs;
      expect(declared.map((d) => ({ event: d.event, matcher: d.matcher, hook: d.hook, async: d.async }))).toEqual(
        specs.map((s) => ({ event: s.event, matcher: s.matcher, hook: s.hook, async: s.async === true })),
      );
    });

    it('records every tool call once or filters it as noise, and stores no planted secret', async () => {
      const home = join(tmp.path, 'home');
      const store = openStore({ home });
      try {
        const records: ReplayRecord[] = [];
        for (const file of copy.files)
          records.push(...(await replayInProcess(transcriptHookEvents(file), declared, { home, store, env: ENV })));

        expect(records.every((r) => validOutput(r.outcome.stdout))).toBe(true);
        expect(records.filter((r) => r.outcome.status === 'failed')).toEqual([]);

        const observe = records.filter((r) => r.hook === 'observe');
        const noise = new Set(observe.filter((r) => r.outcome.status === 'noise').map((r) => r.toolUseId));
        const ids = sessionIds(copy.files);
        const tools = storedObservations(store, ids).filter((o) => o.event === 'tool');
        const stored = new Set(tools.map((r) => r.tool_use_id));
        expect(tools.length).toBe(stored.size);
        const neither = [...copy.toolIds.keys()].filter((id) => !stored.has(id) && !noise.has(id));
        const both = [...copy.toolIds.keys()].filter((id) => stored.has(id) && noise.has(id));
        expect(neither).toEqual([]);
        expect(both).toEqual([]);
        expect(stored.size + noise.size).toBe(copy.toolIds.size);
        expect(copy.toolIds.size).toBeGreaterThan(6_500);
        // Noise is only what the rules call noise.
        for (const r of observe.filter((o) => o.outcome.status === 'noise'))
          expect(r.outcome.detail).toMatch(/^(noisy command|.* is bookkeeping)/);

        expect(ids).toHaveLength(copy.files.length);
        expect(ids.filter((id) => store.sessions.get(id) !== undefined)).toEqual(ids);
        expect(sessionFiles(store)).toHaveLength(copy.files.length);
        expect(existsSync(join(home, 'spool')) ? readdirSync(join(home, 'spool')) : []).toEqual([]);

        const text = allStoredText(store, ids);
        for (const s of SECRETS) expect(text.includes(s.needle), s.needle).toBe(false);
        expect(text).toContain('[REDACTED:');

        // A second replay of some sessions adds nothing.
        const before = store.observations.count();
        for (const file of copy.files.slice(0, 5)) await replayInProcess(transcriptHookEvents(file), declared, { home, store, env: ENV });
        expect(store.observations.count()).toBe(before);
      } finally {
        store.close();
      }
    }, 120_000);

    it('stores exactly the same rows when a sample of sessions runs as real hook processes', async () => {
      const small = copy.files
        .map((f) => ({ f, events: transcriptHookEvents(f) }))
        .filter((s) => s.events.length >= 8 && s.events.length <= 20 && s.events.some((e) => e.payload.tool_name === 'Edit'))
        .slice(0, 2);
      expect(small).toHaveLength(2);
      const ids = sessionIds(small.map((s) => s.f));
      const rowsOf = (home: string): Obj[] => {
        const store = openStore({ home });
        try {
          // Every column but the row id and the processing time, which differ between homes.
          return storedObservations(store, ids)
            .map(({ id: _id, processed_at: _processed, ...row }) => row)
            .sort((a, b) => a.session_id.localeCompare(b.session_id) || a.tool_use_id.localeCompare(b.tool_use_id));
        } finally {
          store.close();
        }
      };

      const viaProcess = join(tmp.path, 'process-home');
      const runs = small.flatMap((s) => replayAsProcesses(s.events, declared, { ...process.env, ...ENV, HOMUNCULUS_HOME: viaProcess }));
      expect(runs.filter((r) => r.status !== 0)).toEqual([]);
      expect(runs.every((r) => validOutput(r.stdout))).toBe(true);
      expect(runs.some((r) => r.event === 'PostToolUse' && r.command.endsWith('hook recall'))).toBe(true);

      const inProcess = join(tmp.path, 'inprocess-home');
      for (const s of small) await replayInProcess(s.events, declared, { home: inProcess, env: ENV });
      const a = rowsOf(viaProcess);
      expect(a.length).toBeGreaterThan(5);
      expect(a).toEqual(rowsOf(inProcess));
    }, 120_000);
  },
);
