import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { mineServices, serviceCall, withServices } from './services.js';

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
});
