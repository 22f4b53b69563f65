/**
 * The real agent clients, installed from npm once by the test setup into .test-tools/agents
 * (pinned versions), so tests drive Claude Code, Codex and Gemini CLI the way users run them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOOLS } from './shared.js';

const AGENTS_DIR = join(TEST_TOOLS, 'agents');

/** npm packages and the binary each installs. */
const AGENT_PACKAGES = {
  claude: { spec: '@anthropic-ai/claude-code@2.1.330', bin: 'claude' },
} as const;

type AgentName = keyof typeof AGENT_PACKAGES;

/** The installed binary of an agent client, or undefined when the test setup could not install it. */
export function agentBin(name: AgentName): string | undefined {
  const path = join(AGENTS_DIR, 'node_modules', '.bin', AGENT_PACKAGES[name].bin);
  return existsSync(path) ? path : undefined;
}

/** Installs every missing agent client with npm; returns what npm printed on failure. */
export async function installAgents(): Promise<string | undefined> {
  const missing = (Object.keys(AGENT_PACKAGES) as AgentName[]).filter((n) => !agentBin(n));
  if (missing.length === 0) return undefined;
  mkdirSync(AGENTS_DIR, { recursive: true });
  const manifest = join(AGENTS_DIR, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ name: 'homunculus-test-agents', private: true }, null, 2)}\n`);
  const args = [
    'install',
    '--prefix',
    AGENTS_DIR,
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    ...missing.map((n) => AGENT_PACKAGES[n].spec),
  ];
  return new Promise((done) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', (err) => done(err.message));
    child.on('close', (code) => done(code === 0 ? undefined : output.slice(-2000) || `npm exited ${code}`));
  });
}
