import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../core/project.js';
import { promptText } from './redact.js';
import { promptObservation } from './session-events.js';

const project: ProjectInfo = { fingerprint: '0123456789abcdef', name: 'app', root: '/w/app', remote: null };

describe('prompt observations', () => {
  it('prompt ids depend on session, text and occurrence, not on time', () => {
    const text = promptText('  fix the build  ');
    expect(text).toBe('fix the build');
    const prompt = (ts: string, occurrence: number) =>
      promptObservation({ source: 'claude-code', sessionId: 's', ts, cwd: '/w', project, text, occurrence });
    const a = prompt('2026-01-01T00:00:00Z', 0);
    const b = prompt('2027-01-01T00:00:00Z', 0);
    const c = prompt('2026-01-01T00:00:00Z', 1);
    expect(a.tool_use_id).toBe(b.tool_use_id);
    expect(a.tool_use_id).not.toBe(c.tool_use_id);
    expect(a.tool_use_id).toMatch(/^prompt:[0-9a-f]{24}$/);
    expect(promptText('x'.repeat(9000)).length).toBe(4000);
  });
});
