/**
 * Optional runtimes installed on demand. transformers.js (for local ONNX models) weighs
 * about 450 MB with its ONNX Runtime, so it is not a dependency: a user who configures an
 * ONNX model installs it once into a runtime folder (`homunculus embed --install-runtime`),
 * and Homunculus loads it from there (or from its own node_modules, when someone installed
 * it next to it).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HomunculusError } from '../core/errors.js';
import { ensureDir } from '../core/fs.js';

export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';
/** The version the ONNX provider is tested with. */
export const TRANSFORMERS_VERSION = '4.3.1';

/** Where on-demand runtimes live: $HOMUNCULUS_RUNTIME, else <home>/runtime. */
export function runtimeDir(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.HOMUNCULUS_RUNTIME || join(home, 'runtime');
}

/** The shell command that installs the ONNX runtime into `dir` (shown in error messages). */
function installCommand(dir: string): string {
  return `ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "${dir}" ${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`;
}

/** The entry file of the package in the runtime folder, or undefined when it is not installed there. */
function resolveFromRuntime(dir: string, name: string): string | undefined {
  try {
    return createRequire(join(dir, 'package.json')).resolve(name);
  } catch {
    return undefined;
  }
}

/** Where the package would load from: next to Homunculus first, then the runtime folder. */
export function locateRuntime(dir: string, name = TRANSFORMERS_PACKAGE): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(name);
  } catch {
    return resolveFromRuntime(dir, name);
  }
}

export function missingRuntimeError(dir: string, cause?: unknown): HomunculusError {
  return new HomunculusError(
    'runtime_missing',
    `The ONNX provider needs ${TRANSFORMERS_PACKAGE} (about 450 MB with ONNX Runtime), which is not installed.`,
    {
      hint: `Install it once with \`homunculus embed --install-runtime\` (it runs: ${installCommand(dir)}), or use the bundled "use-lite" provider.`,
      cause,
    },
  );
}

/** Loads transformers.js from next to Homunculus or from the runtime folder. */
export async function loadTransformers<T>(dir: string): Promise<T> {
  try {
    return (await import(TRANSFORMERS_PACKAGE)) as T;
  } catch {
    const entry = resolveFromRuntime(dir, TRANSFORMERS_PACKAGE);
    if (!entry) throw missingRuntimeError(dir);
    try {
      return (await import(pathToFileURL(entry).href)) as T;
    } catch (err) {
      throw missingRuntimeError(dir, err);
    }
  }
}

/**
 * Installs transformers.js into the runtime folder with npm, streaming npm's output to
 * `log`. ONNX Runtime's optional CUDA download is skipped: only the bundled CPU build is used.
 */
export async function installRuntime(dir: string, log: (chunk: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  ensureDir(dir);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ name: 'homunculus-runtime', private: true }, null, 2)}\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `${TRANSFORMERS_PACKAGE}@${TRANSFORMERS_VERSION}`,
  ];
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(npm, args, { env: { ...env, ONNXRUNTIME_NODE_INSTALL: 'skip' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => log(d.toString()));
    child.stderr.on('data', (d: Buffer) => log(d.toString()));
    child.on('error', fail);
    child.on('close', (c) => done(c ?? 1));
  }).catch((err: unknown) => {
    throw new HomunculusError('runtime_install', `Cannot run npm: ${(err as Error).message}`, {
      hint: `Install Node.js with npm, or run by hand: ${installCommand(dir)}`,
    });
  });
  const entry = resolveFromRuntime(dir, TRANSFORMERS_PACKAGE);
  if (code !== 0 || !entry) {
    throw new HomunculusError('runtime_install', `npm could not install ${TRANSFORMERS_PACKAGE} into ${dir} (exit ${code}).`, {
      hint: `Check the network access to the npm registry, then run again (or by hand: ${installCommand(dir)}).`,
    });
  }
  return entry;
}
