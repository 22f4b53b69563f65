import { describe, expect, it } from 'vitest';
import { AGENT_REPORT, reportedByAgent } from './records.js';

describe('reportedByAgent', () => {
  it('reads the mark on metadata as an object and as the JSON the store writes', () => {
    expect(reportedByAgent({ ...AGENT_REPORT })).toBe(true);
    expect(reportedByAgent(JSON.stringify({ source: 'x', ...AGENT_REPORT }))).toBe(true);
  });

  it('is not fooled by look-alikes', () => {
    expect(reportedByAgent({})).toBe(false);
    expect(reportedByAgent({ reported_by: 'agentic' })).toBe(false);
    expect(reportedByAgent(JSON.stringify({ reported_by: 'agentic' }))).toBe(false);
    expect(reportedByAgent(JSON.stringify({ note: 'reported_by agent' }))).toBe(false);
    expect(reportedByAgent('{}')).toBe(false);
  });
});
