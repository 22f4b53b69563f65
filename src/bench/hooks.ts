/**
 * `npm run bench:hooks`: each hook timed as a whole process, the way an agent runs it,
 * against bare `node -e 0` and against a shell hook that only appends its payload to a
 * file. Runs are interleaved so machine noise hits every command alike. start and prompt
 * run against a store of 1,000 instincts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { formatTable, machine, median, percentile, type ProcessSpec, timeProcesses } from './measure.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const LAUNCHER = join(ROOT, 'scripts', 'homunculus.sh');

const TARGETS: Record<string, number> = { observe: 1.5, start: 3, prompt: 3 };

const WORDS = [
  'test',
  'lint',
  'build',
  'deploy',
  'migrate',
  'docker',
  'cargo',
  'pytest',
  'commit',
  'rebase',
  'config',
  'schema',
  'cache',
  'auth',
  'api',
  'router',
];

/** A home with `count` instincts over a small vocabulary, so ranking has real work to do. */
function seedStore(home: string, count: number): void {
  const store = openStore({ home });
  try {
    for (let i = 0; i < count; i++) {
      const a = WORDS[i % WORDS.length] as string;
      const b = WORDS[(i * 7 + 3) % WORDS.length] as string;
      observe(store, {
        pattern: `seq:${a}-${b}-${i}`,
        trigger: `when the ${a} step touches ${b} (case ${i})`,
        action: `run the ${b} check after ${a}`,
        occurrences: 1 + (i % 5),
      });
    }
  } finally {
    store.close();
  }
}

async function runHooksBench(runs = Number(process.env.BENCH_RUNS ?? 20)): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'homunculus-bench-hooks-'));
  try {
    const home = join(dir, 'home');
    const project = join(dir, 'webapp');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ devDependencies: { vitest: '4', typescript: '5' } }));
    seedStore(home, 1000);
    const env: NodeJS.ProcessEnv = { ...process.env, HOMUNCULUS_HOME: home, HOMUNCULUS_NO_LEARN: '1' };
    delete env.HOMUNCULUS_OBSERVER;
    const base = { session_id: 'bench-session', transcript_path: join(dir, 't.jsonl'), cwd: project };
    let n = 0;
    const payloads: Record<string, () => string> = {
      observe: () =>
        JSON.stringify({
          ...base,
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'npm run build', description: 'Build' },
          tool_response: { stdout: 'ok', stderr: '' },
          tool_use_id: `toolu_${n++}`,
        }),
      start: () => JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }),
      prompt: () =>
        JSON.stringify({
          ...base,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'the docker step touches the schema again and the build fails, can you fix it?',
        }),
      recall: () =>
        JSON.stringify({
          ...base,
          hook_event_name: 'PostToolUse',
          tool_name: 'Edit',
          tool_input: { file_path: join(project, 'src/app.ts'), old_string: 'a', new_string: 'b' },
          tool_response: {},
          tool_use_id: `toolu_e${n++}`,
        }),
      stop: () => JSON.stringify({ ...base, hook_event_name: 'Stop', stop_hook_active: false }),
    };
    const appendFile = join(dir, 'appended.jsonl');
    const hookSpec = (label: string, hook: string, launcher = false): ProcessSpec => ({
      label,
      command: launcher ? 'sh' : process.execPath,
      args: launcher ? [LAUNCHER, 'hook', hook] : [BIN, 'hook', hook],
      env,
      input: (payloads[hook] as () => string)(),
    });
    const specs: ProcessSpec[] = [
      { label: 'node -e 0', command: process.execPath, args: ['-e', '0'], env, input: payloads.observe?.() },
      { label: 'shell append', command: 'sh', args: ['-c', `cat >> "${appendFile}"`], env, input: payloads.observe?.() },
      hookSpec('observe', 'observe'),
      hookSpec('observe (plugin launcher)', 'observe', true),
      hookSpec('recall', 'recall'),
      hookSpec('start', 'start'),
      hookSpec('prompt', 'prompt'),
      hookSpec('stop', 'stop'),
    ];
    const samples = timeProcesses(specs, runs, 3);
    const nodeMedian = median(samples[0] as number[]);
    const shellMedian = median(samples[1] as number[]);
    const rows = specs.map((spec, i) => {
      const s = samples[i] as number[];
      const m = median(s);
      const target = TARGETS[spec.label];
      return [
        spec.label,
        m,
        percentile(s, 90),
        `${(m / nodeMedian).toFixed(2)}x`,
        `${(m / shellMedian).toFixed(1)}x`,
        target ? `<= ${target}x` : '',
      ];
    });
    return [
      '## Hooks (whole processes)',
      '',
      `${runs} interleaved runs per command after 3 warm-up rounds; start and prompt against 1,000 instincts. ${machine()}.`,
      '',
      formatTable(['command', 'median ms', 'p90 ms', 'vs node -e 0', 'vs shell append', 'target'], rows),
      '',
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await runHooksBench());
}
