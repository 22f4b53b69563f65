import { describe, expect, it } from 'vitest';
import { type GoldItem, judge, type LearnedInstinct, notesFile, score, splitSessions } from './learn-gold.js';

const gold = (id: string, match: string, sessions: string[]): GoldItem => ({
  id,
  kind: 'fix',
  what: id,
  instinct: id,
  sessions,
  match,
  already_in_claude_md: false,
  author: 'reader',
});

const learned = (key: string, action: string, extra: Partial<LearnedInstinct> = {}): LearnedInstinct => ({
  key,
  title: key,
  trigger: 'when linting',
  action,
  evidence: 3,
  documented: false,
  auditFailures: [],
  ...extra,
});

describe('bench:learn scoring', () => {
  it('splits sessions by start time into alternating halves, ties broken by id', () => {
    const { tune, heldOut } = splitSessions([
      { id: 'c', startedAt: '2026-01-03' },
      { id: 'a', startedAt: '2026-01-01' },
      { id: 'b2', startedAt: '2026-01-02' },
      { id: 'b1', startedAt: '2026-01-02' },
    ]);
    expect([...tune]).toEqual(['a', 'b2']);
    expect([...heldOut]).toEqual(['b1', 'c']);
  });

  it('counts a gold pattern only where it recurs in 3 of the sessions learned from', () => {
    const items = [gold('wrap', 'wrapcheck', ['s1', 's2', 's3']), gold('stash', 'git stash', ['s1', 's2', 's9'])];
    const s = score([learned('fix:wrap', 'Wrap errors: wrapcheck fails')], items, [], new Set(['s1', 's2', 's3']));
    expect(s.learnable).toBe(1);
    expect(s.matched).toEqual(['wrap']);
    expect(s.recall).toBe(1);
  });

  it('judges by gold first, then the reader, then the stated rules, and counts the unjudged as junk', () => {
    const items = [gold('wrap', 'wrapcheck', ['s1', 's2', 's3'])];
    const notes = notesFile.parse([{ text: 'mise run dup', verdict: 'trivial', note: 'a routine step' }]);
    const all = [
      learned('fix:wrap', 'wrapcheck: wrap the error', { auditFailures: ['says when'] }),
      learned('seq:dup', 'Run `mise run dup` next'),
      learned('pref:fmt', 'Use `mise run fmt`', { documented: true }),
      learned('seq:x', 'Expect x next', { auditFailures: ['names something concrete'] }),
      learned('combo:a+b', 'Update `a.go` with `b.go`'),
    ];
    expect(all.map((i) => judge(i, items, notes).verdict)).toEqual(['useful', 'trivial', 'trivial', 'junk', 'unjudged']);
    const s = score(all, items, notes, new Set(['s1', 's2', 's3', 's4', 's5']));
    expect(s.counts).toEqual({ useful: 1, trivial: 2, junk: 1, wrong: 0, unjudged: 1 });
    expect(s.junkRate).toBeCloseTo(2 / 5);
    expect(s.usefulPer10).toBeCloseTo(2);
  });

  it('refuses a reader note that names neither a key nor a text', () => {
    expect(() => notesFile.parse([{ verdict: 'junk', note: 'x' }])).toThrow(/names a key or a text/);
  });

  it('lets a reader overrule an accidental gold match, in the verdict and in recall', () => {
    const items = [gold('parity', 'geminicli', ['s1', 's2', 's3'])];
    const notes = notesFile.parse([{ key: 'fix:dupl', verdict: 'trivial', note: 'a path, not parity', accidental: true }]);
    const dupl = learned('fix:dupl', 'lines are duplicate of `agent/geminicli/hooks_test.go`');
    expect(judge(dupl, items, notes).verdict).toBe('trivial');
    expect(score([dupl], items, notes, new Set(['s1', 's2', 's3'])).recall).toBe(0);
  });
});
