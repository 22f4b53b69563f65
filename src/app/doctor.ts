/**
 * Diagnosing an installation: each check says what it found and, when it fails, how to fix
 * it. Capabilities add their checks to DOCTOR_CHECKS.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { loadConfig } from '../core/config.js';
import { type HomePaths, homeNotDirectory } from '../core/paths.js';
import { fts5Problem, openStore } from '../store/store.js';
import { hooksCheck, observationsCheck } from '../capture/doctor.js';
import { userNames } from './user-names.js';
import { projectJoins } from '../core/project-alias.js';
import { embeddingConfig } from '../embed/config.js';
import { locateRuntime, missingRuntimeError, runtimeDir } from '../embed/runtime.js';
import { indexStatus } from '../search/status.js';
import { INSTALL_FIX, rootNote, sandboxWorks } from '../agent/sandbox.js';
import { counted } from '../core/text.js';
import { databaseCheck } from './doctor-database.js';

type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

/** Where the user's agents keep their settings: their home directory and the project. */
interface Surroundings {
  userHome: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A check's finding; undefined when it does not apply here (nothing configured to check). */
type DoctorCheck = (paths: HomePaths, around: Surroundings) => CheckResult | undefined | Promise<CheckResult | undefined>;

const nodeVersion: DoctorCheck = () => {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  // 20.16 is the first Node 20 with process.getBuiltinModule, which the hooks use to load crypto lazily.
  return major > 20 || (major === 20 && minor >= 16)
    ? { name: 'node', status: 'ok', detail: `Node.js ${process.versions.node}` }
    : { name: 'node', status: 'fail', detail: `Node.js ${process.versions.node} is too old`, fix: 'Install Node.js 20.16 or newer.' };
};

const homeWritable: DoctorCheck = (paths) => {
  const notDirectory = homeNotDirectory(paths.home);
  if (notDirectory) return { name: 'home', status: 'fail', detail: notDirectory.message, fix: notDirectory.hint };
  if (!existsSync(paths.home)) {
    return { name: 'home', status: 'warn', detail: `${paths.home} does not exist yet`, fix: 'Run `homunculus init`.' };
  }
  try {
    accessSync(paths.home, constants.W_OK);
    return { name: 'home', status: 'ok', detail: `${paths.home} is writable` };
  } catch {
    return {
      name: 'home',
      status: 'fail',
      detail: `${paths.home} is not writable`,
      fix: `Fix its permissions, or use --home / HOMUNCULUS_HOME.`,
    };
  }
};

/** The sections config.json may hold; each capability checks its own (the agent's, the embedding's, ... below). */
const CONFIG_SECTIONS = ['embedding', 'llm', 'agent', 'user', 'mcp'];

const configFile: DoctorCheck = (paths) => {
  try {
    const config = loadConfig(paths.config);
    userNames(config);
    const unknown = Object.keys(config).filter((k) => !CONFIG_SECTIONS.includes(k));
    if (unknown.length)
      return {
        name: 'config',
        status: 'warn',
        detail: `${paths.config}: ${unknown.map((k) => JSON.stringify(k)).join(', ')} ${unknown.length === 1 ? 'is not a section' : 'are not sections'} Homunculus reads`,
        fix: `Check the spelling: the sections are ${CONFIG_SECTIONS.join(', ')}.`,
      };
    return {
      name: 'config',
      status: 'ok',
      detail: existsSync(paths.config)
        ? `${paths.config} (${counted(Object.keys(config).length, 'section')})`
        : 'defaults (no config.json)',
    };
  } catch (err) {
    return { name: 'config', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
};

const database: DoctorCheck = (paths) => databaseCheck(paths);

/** Below this much free space a sync may fail half-way; at none, every write fails. */
const LOW_DISK_BYTES = 100 * 1024 * 1024;

/** Pure: what `free` bytes left on the data home's disk mean. */
export function diskVerdict(free: number, home: string): CheckResult {
  const mb = `${Math.floor(free / 1024 / 1024)} MB free`;
  if (free <= 0) return { name: 'disk', status: 'fail', detail: `the disk of ${home} is full`, fix: 'Free some space on it.' };
  if (free < LOW_DISK_BYTES)
    return { name: 'disk', status: 'warn', detail: `${mb} on the disk of ${home}`, fix: 'Free some space before the next sync.' };
  return { name: 'disk', status: 'ok', detail: mb };
}

const diskSpace: DoctorCheck = (paths) => {
  if (!existsSync(paths.home)) return { name: 'disk', status: 'ok', detail: 'no data home yet' };
  const fs = statfsSync(paths.home);
  return diskVerdict(fs.bavail * fs.bsize, paths.home);
};

const fts5: DoctorCheck = () => {
  const problem = fts5Problem();
  if (!problem) return { name: 'fts5', status: 'ok', detail: 'SQLite FTS5 with the porter tokenizer is available' };
  return {
    name: 'fts5',
    status: 'fail',
    detail: problem,
    fix: 'Reinstall homunculus so better-sqlite3 is rebuilt (npm rebuild better-sqlite3).',
  };
};

export const llmConfig: DoctorCheck = async (paths, around) => {
  try {
    const config = loadConfig(paths.config);
    const { llmSectionHelp, loadLlmConfig } = await import('../llm/config.js');
    const llm = loadLlmConfig(config);
    const none = `no model in the "llm" section: learning is deterministic. ${llmSectionHelp(config)}`;
    if (!llm) return { name: 'llm', status: 'ok', detail: none };
    const budget = `budget ${llm.budget.perRunTokens} tokens per run, ${llm.budget.perDayTokens} per day`;
    if (llm.provider === 'anthropic') {
      const keyEnv = llm.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
      if (!around.env[keyEnv])
        return {
          name: 'llm',
          status: 'warn',
          detail: `anthropic ${llm.model}: $${keyEnv} is not set`,
          fix: `Export ${keyEnv}, or remove the "llm" section.`,
        };
    }
    return { name: 'llm', status: 'ok', detail: `${llm.provider}${llm.model ? ` ${llm.model}` : ''}, ${budget}` };
  } catch (err) {
    return { name: 'llm', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
};

const embeddings: DoctorCheck = (paths) => {
  if (!existsSync(paths.db)) return { name: 'embeddings', status: 'warn', detail: 'no database yet', fix: 'Run `homunculus init`.' };
  let cfg;
  try {
    cfg = embeddingConfig(loadConfig(paths.config));
  } catch (err) {
    return { name: 'embeddings', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  if (cfg.provider === 'none') return { name: 'embeddings', status: 'ok', detail: 'turned off (full-text search only)' };
  if (cfg.provider === 'onnx') {
    const dir = runtimeDir(paths.home);
    if (!locateRuntime(dir))
      return { name: 'embeddings', status: 'fail', detail: missingRuntimeError(dir).message, fix: missingRuntimeError(dir).hint };
  }
  const store = openStore({ home: paths.home, readonly: true });
  try {
    const s = indexStatus(store.documents, cfg);
    const model = `${s.configured.provider}/${s.configured.model}`;
    if (s.modelChanged && s.stored) {
      return {
        name: 'embeddings',
        status: 'warn',
        detail: `vectors are from ${s.stored.provider}/${s.stored.model}, the configured model is ${model}`,
        fix: 'Run `homunculus embed` to re-embed every document.',
      };
    }
    if (s.missing > 0) {
      return {
        name: 'embeddings',
        status: 'warn',
        detail: `${s.missing} of ${s.documents} documents have no embedding (${model})`,
        fix: 'Run `homunculus embed` (queries also repair up to 20 at a time).',
      };
    }
    return { name: 'embeddings', status: 'ok', detail: `${s.current} documents embedded with ${model}` };
  } catch (err) {
    return {
      name: 'embeddings',
      status: 'warn',
      detail: `cannot read the search index: ${(err as Error).message}`,
      fix: 'See the database check above.',
    };
  } finally {
    store.close();
  }
};

/** Pure: what the sandbox probe means. shell_exec refuses without bubblewrap (fails closed): a failure once the agent is set up. */
export function sandboxVerdict(probe: { ok: boolean; detail: string }, agentSetUp: boolean, asRoot?: string): CheckResult {
  // As root, commands run as nobody: they cannot write a workspace root owns (agent init said so too).
  if (probe.ok && asRoot) return { name: 'sandbox', status: 'warn', detail: `${probe.detail}; but ${asRoot}` };
  if (probe.ok) return { name: 'sandbox', status: 'ok', detail: probe.detail };
  return {
    name: 'sandbox',
    status: agentSetUp ? 'fail' : 'warn',
    detail: `${probe.detail}${agentSetUp ? '' : ' (the agent is not set up yet)'}`,
    fix: `${INSTALL_FIX.charAt(0).toUpperCase()}${INSTALL_FIX.slice(1)}.`,
  };
}

const sandbox: DoctorCheck = (paths) => {
  const setUp = existsSync(paths.workspace);
  return sandboxVerdict(sandboxWorks(), setUp, setUp ? rootNote(paths.workspace) : undefined);
};

const agentModels: DoctorCheck = async (paths, around) => {
  const { agentConfigVerdict } = await import('../agent/doctor.js');
  return agentConfigVerdict(loadConfig(paths.config), around.env, existsSync(paths.workspace));
};

const mind: DoctorCheck = async (paths, around) => {
  const [{ mindVerdict }, { instanceRoot }, { systemClock }] = await Promise.all([
    import('../mind/doctor.js'),
    import('../mind/instance.js'),
    import('../core/clock.js'),
  ]);
  return mindVerdict(instanceRoot(paths.home), systemClock(around.env).now().getUTCFullYear());
};

/** Whether something accepts a TCP connection at host:port within `timeoutMs`, and why not. */
export function tcpReachable(host: string, port: number, timeoutMs = 2_000): Promise<{ ok: boolean; why: string }> {
  return new Promise((done) => {
    const socket = createConnection({ host, port });
    const end = (ok: boolean, why: string) => {
      socket.destroy();
      done({ ok, why });
    };
    socket.setTimeout(timeoutMs, () => end(false, `no answer in ${timeoutMs / 1000} s`));
    socket.once('connect', () => end(true, ''));
    socket.once('error', (err: NodeJS.ErrnoException) => end(false, err.code ?? err.message));
  });
}

const gateway: DoctorCheck = async (paths, around) => {
  const [{ gatewayVerdict }, { loadToolSettings }, { readTokenHash }] = await Promise.all([
    import('../agent/doctor.js'),
    import('../agent/tool-config.js'),
    import('../agent/gateway-token.js'),
  ]);
  let settings;
  try {
    settings = loadToolSettings(loadConfig(paths.config), around.env);
  } catch (err) {
    settings = err as Error;
  }
  return gatewayVerdict(settings, readTokenHash(paths.agentToken) !== undefined, existsSync(paths.workspace));
};

const mqtt: DoctorCheck = async (paths, around) => {
  const [{ mqttVerdict }, { loadToolSettings }] = await Promise.all([import('../agent/doctor.js'), import('../agent/tool-config.js')]);
  let url: string | undefined;
  try {
    url = loadToolSettings(loadConfig(paths.config), around.env).mqtt?.url;
  } catch {
    return undefined; // the gateway check reports a bad agent section
  }
  if (url === undefined) return undefined;
  const { hostname, port, protocol } = new URL(url);
  const probe = await tcpReachable(hostname, Number(port || (protocol === 'mqtts:' ? 8883 : 1883)));
  return mqttVerdict(url, probe.ok, probe.why);
};

/** Which checkouts took the history synced for their repository's name: said, so a rule there is never a mystery. */
const projects: DoctorCheck = (paths) => {
  const joins = projectJoins(paths.projectAliases);
  if (joins.length === 0) return undefined;
  return {
    name: 'projects',
    status: 'ok',
    detail: `${joins.map((j) => `checkout ${j.from} uses the history synced for ${j.name} (${j.to})`).join('; ')}; recorded in ${paths.projectAliases}, remove an entry to keep that checkout apart`,
  };
};

const hooks: DoctorCheck = (paths, around) => hooksCheck(around.userHome, around.cwd, around.env, paths.home);
const observations: DoctorCheck = (paths) => observationsCheck(paths);

const DOCTOR_CHECKS: DoctorCheck[] = [
  nodeVersion,
  homeWritable,
  configFile,
  database,
  diskSpace,
  fts5,
  llmConfig,
  embeddings,
  hooks,
  observations,
  projects,
  sandbox,
  agentModels,
  gateway,
  mqtt,
  mind,
];

export async function runDoctor(
  paths: HomePaths,
  around: Surroundings,
  checks: readonly DoctorCheck[] = DOCTOR_CHECKS,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    try {
      const result = await check(paths, around);
      if (result) results.push(result);
    } catch (err) {
      // An error that carries its fix (a config section that does not fit) says it; a damaged database fails every
      // check that reads it, and the database check says what to do.
      const fix = (err as { hint?: unknown }).hint;
      results.push({
        name: check.name || 'check',
        status: 'fail',
        detail: (err as Error).message,
        fix: typeof fix === 'string' && fix ? fix : 'See the database check above.',
      });
    }
  }
  return results;
}
