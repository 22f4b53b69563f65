import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { gatewayVerdict, mqttVerdict } from '../agent/doctor.js';
import { sandboxWorks } from '../agent/sandbox.js';
import { loadToolSettings } from '../agent/tool-config.js';
import { llmConfig, runDoctor, sandboxVerdict, tcpReachable } from './doctor.js';
import { UsageError } from '../core/errors.js';
import { homePaths } from '../core/paths.js';
import { tempDir } from '../test-support/cli.js';
import { writeFileSync } from 'node:fs';

describe('the sandbox check', () => {
  it('says how to install bubblewrap when it is missing: a failure once the agent is set up, a warning before', () => {
    const probe = sandboxWorks('/nonexistent/bwrap');
    expect(probe.ok).toBe(false);
    expect(sandboxVerdict(probe, true)).toEqual({
      name: 'sandbox',
      status: 'fail',
      detail: 'bubblewrap (/nonexistent/bwrap) is not installed, so shell_exec cannot run anything',
      fix: 'Install bubblewrap: apt-get install bubblewrap.',
    });
    expect(sandboxVerdict(probe, false)).toMatchObject({ status: 'warn', detail: expect.stringContaining('not set up yet') });
    expect(sandboxVerdict({ ok: true, detail: 'fine' }, true)).toEqual({ name: 'sandbox', status: 'ok', detail: 'fine' });
    // As root, what agent init said: commands run as nobody and cannot write a workspace root owns.
    expect(sandboxVerdict({ ok: true, detail: 'fine' }, true, 'running as root, shell_exec runs commands as nobody')).toEqual({
      name: 'sandbox',
      status: 'warn',
      detail: 'fine; but running as root, shell_exec runs commands as nobody',
    });
  });
});

describe('the gateway and MQTT checks', () => {
  const settings = loadToolSettings({});

  it('warns when the agent is set up but the gateway has no token; fails on a bad agent section', () => {
    expect(gatewayVerdict(settings, true, true)).toMatchObject({ status: 'ok', detail: expect.stringContaining('127.0.0.1:') });
    expect(gatewayVerdict(settings, false, true)).toMatchObject({ status: 'warn', fix: expect.stringContaining('homunculus agent token') });
    expect(gatewayVerdict(settings, false, false).status).toBe('ok');
    let bad: Error = new Error('unreached');
    try {
      loadToolSettings({ agent: { mqtt: { url: 'http://nope' } } });
    } catch (err) {
      bad = err as Error;
    }
    expect(gatewayVerdict(bad, true, true)).toMatchObject({ status: 'fail', detail: expect.stringContaining('agent.mqtt.url') });
  });

  it('probes the broker over TCP: a listener answers, a closed port does not, and says why', async () => {
    const server = createServer((s) => s.end());
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await tcpReachable('127.0.0.1', port)).toEqual({ ok: true, why: '' });
    } finally {
      await new Promise((closed) => server.close(closed));
    }
    const closed = await tcpReachable('127.0.0.1', port);
    expect(closed).toEqual({ ok: false, why: 'ECONNREFUSED' });
    expect(mqttVerdict(`mqtt://127.0.0.1:${port}`, closed.ok, closed.why)).toMatchObject({
      status: 'warn',
      detail: `the broker at mqtt://127.0.0.1:${port} does not answer (ECONNREFUSED): the mqtt tool will fail`,
    });
    expect(mqttVerdict(undefined, undefined)).toBeUndefined();
  });
});

describe('a check that throws', () => {
  it("gives the error's own fix when it carries one, and points at the database check otherwise", async () => {
    const paths = homePaths('/nonexistent/home');
    const around = { userHome: '/nonexistent', cwd: '/nonexistent', env: {} };
    const config = async () => {
      throw new UsageError('Invalid "agent" section in config.json.', 'Fix the section.');
    };
    const damaged = async () => {
      throw new Error('file is not a database');
    };
    expect(await runDoctor(paths, around, [config, damaged])).toEqual([
      { name: 'config', status: 'fail', detail: 'Invalid "agent" section in config.json.', fix: 'Fix the section.' },
      { name: 'damaged', status: 'fail', detail: 'file is not a database', fix: 'See the database check above.' },
    ]);
  });
});

describe('the llm check', () => {
  it("without an llm section says what uses it and how to set it, and that the agent's models are separate", async () => {
    const dir = tempDir('doctor-llm-');
    try {
      const paths = homePaths(dir.path);
      const around = { userHome: dir.path, cwd: dir.path, env: {} };
      writeFileSync(paths.config, JSON.stringify({ agent: { local: { provider: 'ollama', model: 'llama3.2' } } }));
      const said = await llmConfig(paths, around);
      expect(said).toMatchObject({ name: 'llm', status: 'ok' });
      expect(said?.detail).toMatch(
        /^no model in the "llm" section: learning is deterministic\. Learning and the memory chat use the "llm" section/,
      );
      expect(said?.detail).toContain("not the agent's models (agent.local, agent.remote)");
      expect(said?.detail).toContain('to set it: {"llm": {"provider": "anthropic"');
      // Without agent models, nothing about them.
      writeFileSync(paths.config, '{}');
      expect((await llmConfig(paths, around))?.detail).not.toContain('agent.local');
    } finally {
      dir.cleanup();
    }
  });
});
