/**
 * Several agents through the built binary: `agent agents` and `agent skills`, and `agent chat`
 * over real worker threads (dist/app/agent-worker-main.js) talking to a loopback Ollama stub:
 * an @mention reaches its persona, a trigger injects its skill, a handoff moves the session.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STUB_ENV, stubModel } from '../test-support/agent-loop.js';
import { BIN, type CliResult, cli, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { type OllamaRequest, startOllamaStub } from '../test-support/ollama-stub.js';

const chat = (home: string, input: string): Promise<CliResult> =>
  runNode([BIN, 'agent', 'chat', '--session', 's1'], cliEnv(home, STUB_ENV), input);

const system = (r: OllamaRequest): string => r.messages.find((m) => m.role === 'system')?.content ?? '';

describe('several agents', () => {
  let dir: ReturnType<typeof tempDir>;
  let home: string;
  const stops: (() => Promise<void>)[] = [];
  const skill = (name: string, text: string) => {
    mkdirSync(join(home, 'workspace', 'skills', name), { recursive: true });
    writeFileSync(join(home, 'workspace', 'skills', name, 'SKILL.md'), text);
  };
  beforeEach(() => {
    dir = tempDir('homunculus-agent-team-');
    home = join(dir.path, 'home');
    mkdirSync(home, { recursive: true });
    expect(cli(home, ['agent', 'init']).status).toBe(0);
    skill(
      'garden',
      '---\nname: garden\ndescription: Plant care\ntriggers: [water the plants]\ntools: [workspace_read]\n---\nRead notes/plants.md first.\n',
    );
    skill('rogue', '---\nname: rogue\ndescription: Wants a tool\ntriggers: [mail]\ntools: [send_email]\n---\nSend mail.\n');
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    dir.cleanup();
  });

  it('agent agents and agent skills list what is loaded and why a skill was skipped', () => {
    const agents = JSON.parse(cli(home, ['agent', 'agents', '--json']).stdout) as {
      agents: { name: string; model: string; tools?: string[] }[];
    };
    expect(agents.agents.map((a) => a.name)).toEqual(['coder', 'default', 'home', 'planner', 'researcher']);
    expect(agents.agents.find((a) => a.name === 'home')).toMatchObject({ model: 'local', tools: expect.arrayContaining(['mqtt_publish']) });
    const skills = cli(home, ['agent', 'skills']);
    expect(skills.status).toBe(0);
    expect(skills.stdout).toContain('garden: Plant care (triggers: water the plants; tools: workspace_read)');
    expect(skills.stdout).toMatch(
      /! skipped rogue: skills\/rogue\/SKILL\.md: it names tools that do not exist: send_email \(skills cannot add tools/,
    );
  });

  it('routes an @mention to its persona in its own thread, injects a triggered skill, and hands off with a summary', async () => {
    const ollama = await startOllamaStub((req) => {
      const soul = system(req);
      const last = req.messages.at(-1);
      if (soul.includes('Soul of the planner')) return { text: 'Plan ready.' };
      if (soul.includes('Soul of the home agent')) return { text: 'home here' };
      if (last?.role === 'tool') return { text: 'Over to the planner.' };
      if (last?.content?.includes('hand this over'))
        return { tool: { name: 'handoff', input: { to: 'planner', summary: 'wants a week plan' } } };
      return { text: soul.includes('Soul of the coder') ? 'coder here' : 'default here' };
    });
    stops.push(() => ollama.close());
    writeFileSync(join(home, 'config.json'), JSON.stringify({ agent: { local: stubModel('ollama', ollama.baseUrl) } }));
    const r = await chat(home, '@coder please water the plants\n@default hand this over\n@home lights on\n/quit\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('coder here');
    expect(r.stdout).toMatch(/ {2}\[coder\] \(local ollama:llama-stub/);
    const coder = system(ollama.requests[0]!);
    expect(coder).toContain('Soul of the coder');
    expect(coder).not.toContain('keywords:');
    expect(coder).toContain('<skill name="garden">\nRead notes/plants.md first.\n</skill>');
    expect(coder).not.toContain('Send mail.');
    expect(ollama.requests[0]!.messages.at(-1)?.content).toBe('please water the plants');
    expect(r.stdout).toContain('Over to the planner.');
    expect(r.stdout).toContain('Plan ready.');
    const planner = ollama.requests.find((q) => system(q).includes('Soul of the planner'))!;
    expect(planner.messages.at(-1)?.content).toBe('[Handed over by the default agent. Its summary: wants a week plan]\n\nhand this over');
    // The planner may hand back; the home persona may use only the tools its front matter names.
    expect(planner.tools).toContain('handoff');
    expect(r.stdout).toContain('home here');
    const homeTools = ollama.requests.find((q) => system(q).includes('Soul of the home agent'))!.tools;
    // Its MQTT tools are not offered: no broker is configured, and they could only fail.
    expect(homeTools.sort()).toEqual(['datetime_now', 'handoff', 'memory_search']);
    const audit = readFileSync(join(home, 'logs', 'agent-audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"action":"handoff","session":"s1","subject":"default->planner"/);
  });
});
