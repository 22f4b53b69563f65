/**
 * Runs once before the test files: installs the on-demand runtime and the agent clients the
 * tests exercise into .test-tools/ (gitignored) the way a user would, unless they are there.
 * Without network access the install fails and the tests that need it are skipped with a line.
 */
import { installRuntime, locateRuntime } from '../embed/runtime.js';
import { installAgents } from './agents.js';
import { TEST_RUNTIME } from './shared.js';

export default async function setup(): Promise<void> {
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
