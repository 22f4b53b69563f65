/**
 * Runs once before the test files: rebuilds dist/ when a source file is newer (the tests that
 * spawn the binary must never run stale code), and installs the on-demand runtime and the agent
 * clients the tests exercise into .test-tools/ (gitignored) the way a user would, unless they
 * are there. Without network access the install fails and the tests that need it are skipped
 * with a line.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { installRuntime, locateRuntime } from '../embed/runtime.js';
import { installAgents } from './agents.js';
import { REPO_ROOT } from './paths.js';
import { TEST_RUNTIME } from './shared.js';

export default async function setup(): Promise<void> {
  buildIfStale();
  const [agents] = await Promise.all([installAgents(), installOnnxRuntime()]);
  if (agents) process.stderr.write(`test setup: the agent clients could not be installed:\n${agents}\n`);
}

async function installOnnxRuntime(): Promise<void> {
  if (locateRuntime(TEST_RUNTIME)) return;
  process.stderr.write(`test setup: installing transformers.js into ${TEST_RUNTIME} (once)\n`);
  const started = Date.now();
  let output = '';
  try {
    await installRuntime(TEST_RUNTIME, (chunk) => (output += chunk));
    process.stderr.write(`test setup: transformers.js installed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  } catch (err) {
    process.stderr.write(`test setup: ${(err as Error).message}\n${output.slice(-2000)}`);
  }
}

/** The newest modification time of the built sources under `dir` (tests and test support aside). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test-support') newest = Math.max(newest, newestSource(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** When the build last finished: its first output (tsc) and its last (the hook bundle) must both be there. */
function builtAt(): number {
  try {
    const outputs = [join('dist', 'cli', 'bin.js'), join('dist', 'hooks', 'bundle', 'main.js')];
    return Math.min(...outputs.map((p) => statSync(join(REPO_ROOT, p)).mtimeMs));
  } catch {
    return 0;
  }
}

function buildIfStale(): void {
  if (builtAt() >= newestSource(join(REPO_ROOT, 'src'))) return;
  process.stderr.write('test setup: dist/ is older than src/, building it first\n');
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`The build failed, so the tests would run stale code:\n${r.stdout}${r.stderr}`);
  const b = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'bundle-hooks.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`The hook bundle failed, so the tests would run stale code:\n${b.stdout}${b.stderr}`);
}
