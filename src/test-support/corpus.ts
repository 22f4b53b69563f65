/**
 * A small synthetic corpus of Claude Code transcripts, written as Claude Code writes them
 * (~/.claude/projects/<slug>/<session>.jsonl), for tests that must run on a bare clone.
 * Each session of a made-up TypeScript project has prompts, reads, edits, a failing test
 * run fixed by an edit, and lint; the user corrects npm to pnpm in every session, so the
 * learning run has something real to learn.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface CorpusOptions {
  sessions?: number;
  /** The project directory the sessions ran in. */
  cwd?: string;
  /** First session's start (ISO); each next session starts a day later. */
  start?: string;
}

type Rec = Record<string, unknown>;

/** One session's transcript lines. */
function syntheticSession(index: number, options: CorpusOptions = {}): { sessionId: string; lines: string[] } {
  const cwd = options.cwd ?? '/work/shop';
  const sessionId = `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
  const startMs = Date.parse(options.start ?? '2026-03-02T09:00:00Z') + index * 86_400_000;
  let second = 0;
  const at = (): string => new Date(startMs + (second += 7) * 1000).toISOString();
  const base = { sessionId, cwd, version: '2.1.30', isSidechain: false, userType: 'external' };
  const records: Rec[] = [{ type: 'summary', summary: `Shop session ${index + 1}: checkout work`, leafUuid: `leaf-${index}` }];
  const prompt = (text: string): void =>
    void records.push({ ...base, type: 'user', timestamp: at(), message: { role: 'user', content: text } });
  let n = 0;
  const tool = (name: string, input: Rec, result: string, error = false): void => {
    const id = `toolu_${index}_${n++}`;
    records.push({
      ...base,
      type: 'assistant',
      timestamp: at(),
      message: { id: `msg_${index}_${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    records.push({
      ...base,
      type: 'user',
      timestamp: at(),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, ...(error ? { is_error: true } : {}) }] },
      ...(error ? {} : { toolUseResult: name === 'Bash' ? { stdout: result, stderr: '', interrupted: false } : { type: 'text' } }),
    });
  };
  prompt(`Add a discount field to the checkout (part ${index + 1})`);
  tool('Read', { file_path: `${cwd}/src/checkout.ts` }, 'export function total() {}');
  tool('Bash', { command: 'npm install', description: 'Install dependencies' }, 'added 12 packages');
  prompt('No, use pnpm, not npm.');
  tool('Bash', { command: 'pnpm install', description: 'Install dependencies' }, 'Done in 2s');
  tool('Edit', { file_path: `${cwd}/src/checkout.ts`, old_string: 'total()', new_string: 'total(discount)' }, 'The file has been updated.');
  tool('Edit', { file_path: `${cwd}/src/checkout.test.ts`, old_string: 'a', new_string: 'b' }, 'The file has been updated.');
  tool(
    'Bash',
    { command: 'pnpm vitest run src/checkout.test.ts' },
    "Exit code 1\nError: Cannot find module './discount' imported from src/checkout.ts",
    true,
  );
  tool('Write', { file_path: `${cwd}/src/discount.ts`, content: 'export const rate = 0.1;' }, 'File created successfully');
  tool('Bash', { command: 'pnpm vitest run src/checkout.test.ts' }, 'Test Files  1 passed (1)');
  tool('Bash', { command: 'pnpm lint' }, 'No problems');
  tool('Grep', { pattern: 'discount', path: `${cwd}/src` }, 'src/checkout.ts');
  tool('Bash', { command: `git commit -am "checkout: discount part ${index + 1}"` }, '[main abc123] checkout');
  prompt('Always run pnpm lint before committing.');
  return { sessionId, lines: records.map((r) => JSON.stringify(r)) };
}

/** Writes `sessions` transcripts under `<home>/.claude/projects/<slug>/`; returns the files. */
export function writeSyntheticCorpus(home: string, options: CorpusOptions = {}): string[] {
  const cwd = options.cwd ?? '/work/shop';
  const dir = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < (options.sessions ?? 4); i++) {
    const { sessionId, lines } = syntheticSession(i, options);
    const file = join(dir, `${sessionId}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    files.push(file);
  }
  return files;
}
