/**
 * Data and tools that live outside a bare clone: the shared corpus beside the repository
 * (../shared) and on-demand runtimes installed by the test setup (.test-tools/). A test
 * that needs one and finds it absent is skipped with one line on stderr saying what and why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { locateRuntime } from '../embed/runtime.js';
import { REPO_ROOT } from './paths.js';

const SHARED = join(REPO_ROOT, '..', 'shared');
export const TRANSCRIPTS = join(SHARED, 'data', 'claude-code-transcripts');
export const TEST_TOOLS = join(REPO_ROOT, '.test-tools');
/** The ONNX runtime (transformers.js) the test setup installs once, as `embed --install-runtime` would. */
export const TEST_RUNTIME = join(TEST_TOOLS, 'runtime');

const said = new Set<string>();

function skipLine(what: string, why: string): void {
  const line = `[skipped] ${what}: ${why}`;
  if (said.has(line)) return;
  said.add(line);
  process.stderr.write(`${line}\n`);
}

/** True when `path` under ../shared exists; otherwise says which test is skipped. */
export function hasShared(what: string, path: string = TRANSCRIPTS): boolean {
  if (existsSync(path)) return true;
  skipLine(what, `${path} is absent (../shared is not beside this clone)`);
  return false;
}

/** True when the test runtime of transformers.js is installed; otherwise says which test is skipped. */
export function hasOnnxRuntime(what: string): boolean {
  if (locateRuntime(TEST_RUNTIME)) return true;
  skipLine(what, `transformers.js is not installed in ${TEST_RUNTIME} (the test setup could not reach the npm registry)`);
  return false;
}

/** True when the agent client's binary is installed; otherwise says which test is skipped. */
export function hasAgent(bin: string | undefined, what: string): bin is string {
  if (bin) return true;
  skipLine(what, 'the agent client is not installed in .test-tools/agents (the test setup could not reach the npm registry)');
  return false;
}

/** Debian's chromium, which `.ci/run` installs: the real browser of the dashboard tests. */
export const CHROMIUM = '/usr/bin/chromium';

/** True when Debian's chromium is installed; otherwise says which test is skipped. */
export function hasChromium(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  skipLine(what, `${CHROMIUM} is absent (.ci/run installs Debian's chromium)`);
  return false;
}

/** Debian's bubblewrap, which `.ci/run` installs: the agent's sandbox for shell commands. */
export const BWRAP = '/usr/bin/bwrap';

/** True when Debian's bubblewrap is installed; otherwise says which test is skipped. */
export function hasBwrap(what: string): boolean {
  if (existsSync(BWRAP)) return true;
  skipLine(what, `${BWRAP} is absent (.ci/run installs Debian's bubblewrap)`);
  return false;
}

/** Debian's mosquitto, which `.ci/run` installs: the MQTT broker of the agent's mqtt tool tests. */
export const MOSQUITTO = '/usr/sbin/mosquitto';

/** True when Debian's mosquitto is installed; otherwise says which test is skipped. */
export function hasMosquitto(what: string): boolean {
  if (existsSync(MOSQUITTO)) return true;
  skipLine(what, `${MOSQUITTO} is absent (.ci/run installs Debian's mosquitto)`);
  return false;
}

/** Debian's python3, which `.ci/run` installs: its pty module gives a test a real terminal. */
export const PYTHON = '/usr/bin/python3';

/** True when python3 is installed; otherwise says which test is skipped. */
export function hasPython(what: string): boolean {
  if (existsSync(PYTHON)) return true;
  skipLine(what, `${PYTHON} is absent (.ci/run installs Debian's python3)`);
  return false;
}
