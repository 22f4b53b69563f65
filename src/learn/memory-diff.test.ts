import { describe, expect, it } from 'vitest';
import type { InstinctEventLine } from '../store/audit.js';
import { dayRange, instinctDiff } from './memory-diff.js';

const event = (
  id: number | null,
  ts: string,
  kind: InstinctEventLine['kind'],
  dc: number,
  de = 0,
  confidence = 0.5,
  said: { source?: string; detail?: string } = {},
): InstinctEventLine => ({
  instinct_id: id,
  pattern: `seq:p${id ?? 'gone'}`,
  confidence,
  ts: `2026-01-${ts}T00:00:00.000Z`,
  kind,
  delta_evidence: de,
  delta_confidence: dc,
  source: said.source ?? 'cli',
  detail: said.detail ?? '',
});

describe('instinctDiff', () => {
  it('rebuilds each score at both ends from the deltas after them, events after the range included', () => {
    // Instinct 1 today 0.5: +0.2 inside the range, then -0.4 after it, so 0.9 at `to` and 0.7 at `from`.
    // Instinct 2 today 0.2: fell 0.45 -> 0.2 inside the range. Instinct 3 was created inside it.
    const events = [
      event(1, '05', 'reinforce', 0.2, 3, 0.5),
      event(1, '15', 'decay', -0.4, 0, 0.5),
      event(2, '06', 'decay', -0.25, 0, 0.2),
      event(3, '07', 'create', 0, 1, 0.4),
      event(4, '20', 'reinforce', 0.1, 1, 0.6),
      // Edited by hand while it faded: the user's change, listed as changed.
      event(5, '03', 'decay', -0.25, 0, 0.2),
      event(5, '04', 'edit', 0, 0, 0.2),
    ];
    const diff = instinctDiff(events, '2026-01-01T00:00:00.000Z', '2026-01-10T00:00:00.000Z');
    expect(diff.changed).toEqual([
      { pattern: 'seq:p1', confidence_before: 0.7, confidence_after: 0.9, evidence_added: 3, kinds: ['reinforce'] },
      { pattern: 'seq:p5', confidence_before: 0.45, confidence_after: 0.2, evidence_added: 0, kinds: ['decay', 'edit'] },
    ]);
    // Faded is not forgotten: it is still there, and still given when a prompt clearly matches.
    expect(diff.faded).toEqual([
      { pattern: 'seq:p2', confidence_before: 0.45, confidence_after: 0.2, evidence_added: 0, kinds: ['decay'] },
    ]);
    expect(diff.forgotten).toEqual([]);
    expect(diff.created.map((m) => m.pattern)).toEqual(['seq:p3']);
  });

  it('counts an instinct forgotten by hand in the range as forgotten, from its score before to 0', () => {
    // Its log stays with no row: created before the range at 0.6, forgotten inside it (delta -0.6).
    const events = [event(null, '02', 'reinforce', 0.1, 1, 0), event(null, '08', 'forget', -0.6, -5, 0)];
    const diff = instinctDiff(events, '2026-01-05T00:00:00.000Z', '2026-01-10T00:00:00.000Z');
    expect(diff.forgotten).toEqual([
      { pattern: 'seq:pgone', confidence_before: 0.6, confidence_after: 0, evidence_added: -5, kinds: ['forget'] },
    ]);
    expect([...diff.created, ...diff.changed]).toEqual([]);
  });

  it('lists apart what learning took back, with its reason, and says each merge', () => {
    const reason = 'edited together in 2 of 5 sessions touching either file, below half';
    const events = [
      event(null, '06', 'forget', -0.5, -4, 0, { source: 'observer', detail: JSON.stringify({ key: 'seq:pgone', reason }) }),
      event(7, '07', 'alias', 0, 3, 0.6, { source: 'dashboard', detail: 'absorbed fix:golangci-goconst' }),
    ];
    const diff = instinctDiff(events, '2026-01-05T00:00:00.000Z', '2026-01-10T00:00:00.000Z');
    expect(diff.forgotten).toEqual([]);
    expect(diff.taken_back).toEqual([
      { pattern: 'seq:pgone', confidence_before: 0.5, confidence_after: 0, evidence_added: -4, kinds: ['forget'], reason },
    ]);
    expect(diff.merged).toEqual([{ pattern: 'fix:golangci-goconst', into: 'seq:p7', at: '2026-01-07T00:00:00.000Z', source: 'dashboard' }]);
  });

  it('counts a whole day for a bare end date, not for an instant', () => {
    const from = new Date('2026-01-01');
    expect(dayRange(from, new Date('2026-01-02'), '2026-01-02').to).toBe('2026-01-03T00:00:00.000Z');
    expect(dayRange(from, new Date('2026-01-02T06:00:00Z'), '2026-01-02T06:00:00Z').to).toBe('2026-01-02T06:00:00.000Z');
  });
});
