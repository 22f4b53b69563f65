import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import { classifyMemoryType, isMutable } from './memory-type.js';

const now = new Date('2026-03-01T12:00:00Z');
const kind = (description: string, relation = 'uses', eventAt?: Date | string) =>
  classifyMemoryType({ description, relation, eventAt, now });

describe('Tulving classification', () => {
  it('defaults to semantic', () => {
    expect(kind('HORA uses TypeScript strict')).toBe('semantic');
    expect(kind('the API uses session cookies for authentication')).toBe('semantic');
  });

  it('marks text naming a moment as episodic', () => {
    expect(kind('Fixed the auth bug on 2026-02-20')).toBe('episodic');
    expect(kind('Fixed the auth bug in session 3f2a9c01')).toBe('episodic');
    expect(kind('the build broke yesterday')).toBe('episodic');
    expect(kind('on a corrigé le bug hier')).toBe('episodic');
    expect(kind("le déploiement a échoué aujourd'hui")).toBe('episodic');
    expect(kind('we renamed the module in this session')).toBe('episodic');
    // "hier" inside another word is no marker
    expect(kind('the hierarchy of components')).toBe('semantic');
  });

  it('marks how-to relations and how-to text as procedural', () => {
    for (const relation of ['follows_pattern', 'implements', 'configured_with', 'workaround_for', 'solved_by', 'built_with']) {
      expect(kind('plain words', relation)).toBe('procedural');
    }
    expect(kind('When creating a component -> use shadcn/ui in src/components/')).toBe('procedural');
    expect(kind('how to release: tag then push')).toBe('procedural');
    expect(kind('Quand un test échoue, relancer avec --verbose')).toBe('procedural');
    expect(kind('to run the linter, use `npm run lint`')).toBe('procedural');
  });

  it('puts dated text before how-to relations', () => {
    expect(kind('Fixed the auth bug on 2026-02-20 by pinning jose', 'solved_by')).toBe('episodic');
  });

  it('treats an explicit event time within 48 hours as episodic, at the boundary', () => {
    const at = (ms: number) => new Date(now.getTime() - ms);
    expect(kind('npm test failed with a type error', 'blocked_by', at(47 * 3600_000))).toBe('episodic');
    expect(kind('npm test failed with a type error', 'blocked_by', at(2 * DAY_MS - 1))).toBe('episodic');
    expect(kind('npm test failed with a type error', 'blocked_by', at(2 * DAY_MS))).toBe('semantic');
    expect(kind('npm test failed with a type error', 'blocked_by', 'garbage')).toBe('semantic');
    // a valid_at that merely defaulted to the recording time is no event
    expect(kind('npm test failed with a type error', 'blocked_by', undefined)).toBe('semantic');
  });

  it('keeps episodic memories immutable', () => {
    expect(isMutable('episodic')).toBe(false);
    expect(isMutable('semantic')).toBe(true);
    expect(isMutable('procedural')).toBe(true);
  });
});
