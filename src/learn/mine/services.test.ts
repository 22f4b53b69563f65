import { afterEach, describe, expect, it } from 'vitest';
import { matchingLines } from '../../context/prompt.js';
import { steps } from '../../test-support/learning.js';
import { type TestStore, testStore } from '../../test-support/store.js';
import { observe } from '../instincts.js';
import { mineServices, serviceCall, withServices } from './services.js';

let store: TestStore | undefined;
afterEach(() => store?.cleanup());

describe('MCP services', () => {
  it('reads the server, the tool and the place-naming arguments; editor bridges are not the project', () => {
    expect(
      serviceCall(
        'mcp__linear-server__create_issue',
        '{"title":"Fix it","team":"Core","project":"Atlas","priority":2,"description":"long text"}',
      ),
    ).toEqual({
      server: 'linear-server',
      tool: 'create_issue',
      settings: ['team=Core', 'project=Atlas', 'priority=2'],
    });
    expect(serviceCall('mcp__ide__getDiagnostics', '{"uri":"file:///a.go"}')).toBeUndefined();
    expect(serviceCall('Bash', 'ls')).toBeUndefined();
  });

  it('proposes one rule per server and keeps only the settings two or more sessions share', () => {
    const [found] = mineServices(
      steps([
        { call: 'mcp__linear-server__get_issue', input: '{"id":"ENT-9"}' },
        { call: 'mcp__linear-server__create_issue', input: '{"title":"x","team":"Core","project":"Atlas"}' },
      ]),
    );
    expect(found?.key).toBe('pref:demo/service=linear-server');
    const composed = withServices(found!, [
      '2026-02-01: tool:create_issue; arg:team=Core; arg:project=Atlas',
      '2026-02-02: tool:create_issue; arg:team=Core; arg:project=Other',
      '2026-02-03: tool:get_issue',
    ]);
    expect(composed.action).toBe(
      "Use the linear-server MCP tools (`create_issue`, `get_issue`) with `team=Core`: that is how this project's sessions did it.",
    );
  });

  it('names the tools as code in its trigger, so a prompt that only shares a verb with them is not about the server', () => {
    const tools = ['get_issue', 'create_issue', 'create_comment', 'list_projects', 'update_issue', 'list_issue_statuses'];
    const [found] = mineServices(steps(tools.map((t) => ({ call: `mcp__linear-server__${t}`, input: '{}' }))));
    expect(found?.trigger).toBe(
      'when the work in demo needs what linear-server holds (`get_issue`, `create_issue`, `create_comment`, `list_projects`, `update_issue`, …)',
    );
    store = testStore('2026-02-01T00:00:00.000Z');
    const { trigger, action, key } = found!;
    observe(store, { pattern: key, trigger, action, project: 'fp-demo', occurrences: 3, metadata: { miner: 'service' } });
    const project = { fingerprint: 'fp-demo', name: 'demo' };
    for (const prompt of ['create a pr', 'can you fix issue 1', 'list all the PR comments', 'update the docs'])
      expect(matchingLines(store, project, prompt), prompt).toEqual([]);
    expect(matchingLines(store, project, 'create a linear issue for this')).toEqual([expect.stringContaining('linear-server MCP tools')]);
  });
});
