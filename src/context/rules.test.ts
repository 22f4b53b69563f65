import { describe, expect, it } from 'vitest';
import { CATEGORY_BUDGETS, MAX_GRAPH_CHARS, categoryBudgets, graphBudget, levelFor } from './budget.js';
import { chunkFacts, MAX_CHUNKS } from './chunking.js';
import { classifyTask } from './classify.js';
import { crossProjectRelevance } from './cross-project.js';
import { formatFacts, proceduralLine } from './graph-format.js';
import { categoryOf, generateQueries, identifiers, MAX_QUERIES } from './queries.js';
import { timeReference } from './time-reference.js';

describe('task classification', () => {
  it.each([
    ['add a logout button to the header', 'feature'],
    ['ajoute une nouvelle page de profil', 'feature'],
    ['the checkout crashes with a TypeError', 'bugfix'],
    ['corrige le bug du panier, ça ne marche pas', 'bugfix'],
    ['refactor the cart module and simplify it', 'refactor'],
    ['nettoie et réorganise le code du panier', 'refactor'],
    ['why do we use zod?', 'question'],
    ['pourquoi on utilise zod ?', 'question'],
    ['make the layout of the settings page responsive', 'design'],
    ['add logs and trace the request in the console', 'debug'],
    ['débogue le worker avec des logs', 'debug'],
    ['hello there', 'unknown'],
    ['', 'unknown'],
    ['The Login page DOESN’T WORK since the deploy', 'bugfix'],
    ['bug-fix for the cart', 'bugfix'],
    ["qu'est-ce que ce module fait", 'question'],
    ['the debugger shows nothing', 'unknown'],
    ['prefix the ids', 'unknown'],
  ])('%s -> %s', (prompt, type) => {
    expect(classifyTask(prompt)).toBe(type);
  });

  it('prefers the more specific type on a tie', () => {
    // "fix" (bugfix) and "add" (feature): one hit each
    expect(classifyTask('add a fix')).toBe('bugfix');
  });
});

describe('query generation', () => {
  it('makes 3-5 weighted queries per task with category hints', () => {
    for (const task of ['feature', 'bugfix', 'refactor', 'question', 'design', 'debug', 'unknown'] as const) {
      const qs = generateQueries('add rate limiting to src/api/server.ts with redisClient', task);
      expect(qs.length).toBeGreaterThanOrEqual(3);
      expect(qs.length).toBeLessThanOrEqual(MAX_QUERIES);
      expect(qs[0]?.weight).toBe(1);
    }
    const bug = generateQueries('the checkout crashes', 'bugfix');
    expect(bug.map((q) => [q.category, q.weight])).toEqual([
      ['errors', 1],
      ['context', 0.8],
      ['stack', 0.5],
      ['patterns', 0.5],
    ]);
    expect(bug[0]?.text).toBe('checkout crashes error fails failed fix bug');
    expect(bug[1]?.text).toBe('checkout crashes');
  });

  it('adds a query for the identifiers and paths a prompt names', () => {
    expect(identifiers('look at src/api/server.ts, cart.ts, redisClient and rate_limit')).toEqual([
      'src/api/server.ts',
      'cart.ts',
      'redisClient',
      'rate_limit',
    ]);
    const qs = generateQueries('why is redisClient slow?', 'question');
    expect(qs.at(-1)).toEqual({ text: 'redisClient', category: 'context', weight: 0.9 });
  });

  it('maps relations to categories', () => {
    expect(categoryOf('depends_on')).toBe('stack');
    expect(categoryOf('solved_by')).toBe('errors');
    expect(categoryOf('prefers')).toBe('decisions');
    expect(categoryOf('exemplifies')).toBe('patterns');
    expect(categoryOf('has_component')).toBe('context');
  });
});

describe('context budget', () => {
  it('switches levels at 60, 80 and 90 percent', () => {
    expect(levelFor(0)).toMatchObject({ level: 'full', graph: true, thread: 5000, sections: 400 });
    expect(levelFor(59.9).level).toBe('full');
    expect(levelFor(60)).toMatchObject({ level: 'reduced', graph: true, thread: 2500, sections: 280 });
    expect(levelFor(79.9).level).toBe('reduced');
    expect(levelFor(80)).toMatchObject({ level: 'minimal', graph: false, thread: 500, sections: 150 });
    expect(levelFor(90).level).toBe('minimal');
    expect(levelFor(90.1)).toMatchObject({ level: 'emergency', graph: false, thread: 0, sections: 80 });
    expect(levelFor(Number.NaN).level).toBe('full');
  });

  it('caps the graph at min(6000, 15% of the remaining context), reduced by 30% at the reduced level', () => {
    expect(graphBudget(0)).toBe(MAX_GRAPH_CHARS);
    expect(graphBudget(59)).toBe(6000);
    expect(graphBudget(60)).toBe(4200);
    expect(graphBudget(85)).toBe(0);
    // a small window: 20k tokens, 50% used -> 10k tokens left = 40k chars; 15% = 6000
    expect(graphBudget(50, 20_000)).toBe(6000);
    // 8k tokens, 50% used -> 16k chars left; 15% = 2400
    expect(graphBudget(50, 8_000)).toBe(2400);
    expect(graphBudget(-10)).toBe(6000);
  });

  it('has the designed per-category budgets', () => {
    expect(CATEGORY_BUDGETS).toEqual({ stack: 1500, context: 1500, decisions: 1000, errors: 1000, patterns: 500 });
    expect(categoryBudgets(0.7)).toEqual({ stack: 1050, context: 1050, decisions: 700, errors: 700, patterns: 350 });
  });
});

describe('time references', () => {
  const now = new Date('2026-03-15T12:00:00Z');
  it.each([
    ['what was the deadline on 2026-01-15?', '2026-01-15T23:59:59.999Z'],
    ['what did we use two weeks ago', '2026-03-01T12:00:00.000Z'],
    ['et il y a 3 jours ?', '2026-03-12T12:00:00.000Z'],
    ['what was it yesterday', '2026-03-14T23:59:59.999Z'],
    ["c'était quoi hier ?", '2026-03-14T23:59:59.999Z'],
    ['la semaine dernière, quel ORM ?', '2026-03-08T12:00:00.000Z'],
    ['what was the plan in January', '2026-01-31T23:59:59.999Z'],
    ['in May 2025 we used what?', '2025-05-31T23:59:59.999Z'],
    ['in December', '2025-12-31T23:59:59.999Z'],
  ])('%s -> %s', (prompt, at) => {
    expect(timeReference(prompt, now)?.at).toBe(at);
  });

  it('ignores the present and the future', () => {
    expect(timeReference('what is the deadline', now)).toBeUndefined();
    expect(timeReference('ship by 2026-04-01', now)).toBeUndefined();
    expect(timeReference('the hierarchy', now)).toBeUndefined();
  });
});

describe('chunking', () => {
  const item = (id: number, category: 'stack' | 'errors' | 'context', text: string) => ({ id, category, text });
  it('groups by category and word overlap above 0.2, at most 5 chunks', () => {
    const chunks = chunkFacts([
      item(1, 'stack', 'shop depends on zod for validation'),
      item(2, 'stack', 'shop depends on vitest for tests'),
      item(3, 'errors', 'npm test fails with missing module'),
      item(4, 'stack', 'the cat sat on the mat'),
    ]);
    expect(chunks.map((c) => c.items.map((i) => i.id))).toEqual([[1, 2], [3], [4]]);
    // overlap exactly 0.2 is not enough: {a1 b1 c1} and {c1 d1 e1} share 1 of 5 words
    expect(chunkFacts([item(1, 'stack', 'a1 b1 c1'), item(2, 'stack', 'c1 d1 e1')]).map((c) => c.items.map((i) => i.id))).toEqual([
      [1],
      [2],
    ]);
    expect(chunkFacts([item(1, 'stack', 'a1 b1 c1'), item(2, 'stack', 'b1 c1 d1')]).map((c) => c.items.map((i) => i.id))).toEqual([[1, 2]]);
    const many = Array.from({ length: 9 }, (_, i) => item(i, 'context', `unrelated${i} words${i} here${i}`));
    const capped = chunkFacts(many);
    expect(capped).toHaveLength(MAX_CHUNKS);
    expect(capped.flatMap((c) => c.items)).toHaveLength(9);
  });
});

describe('formatting by memory type', () => {
  const f = (
    id: number,
    memory_type: 'semantic' | 'procedural' | 'episodic',
    description: string,
    valid_at = '2026-01-01T00:00:00Z',
    source = 'shop',
  ) => ({ id, source, relation: 'uses' as const, target: 't', description, memory_type, valid_at });

  it('writes procedures as When X → Y, groups semantics by subject, orders episodes by date', () => {
    const out = formatFacts(
      [
        f(1, 'semantic', 'shop depends on zod'),
        f(2, 'episodic', 'deploy failed on friday', '2026-02-10T00:00:00Z'),
        f(3, 'procedural', 'When npm test fails with "x" -> edit src/a.ts'),
        f(4, 'semantic', 'shop is written in TypeScript'),
        f(5, 'episodic', 'migrated the db', '2026-01-05T00:00:00Z'),
        f(6, 'procedural', 'shop runs migrations before seeding'),
      ],
      10_000,
    );
    expect(out.lines).toEqual([
      '- When npm test fails with "x" → edit src/a.ts (graph #3)',
      '- When working with shop → runs migrations before seeding (graph #6)',
      '- shop: depends on zod (graph #1); is written in TypeScript (graph #4)',
      '- 2026-01-05: migrated the db (graph #5)',
      '- 2026-02-10: deploy failed on friday (graph #2)',
    ]);
    expect(out.chars).toBe(out.lines.join('\n').length + 1);
  });

  it('never exceeds its budget, dropping what does not fit', () => {
    const facts = Array.from({ length: 30 }, (_, i) => f(i, 'semantic', `shop fact number ${i} with some padding words`));
    for (const budget of [0, 10, 60, 200, 1000]) {
      const out = formatFacts(facts, budget);
      expect(out.chars).toBeLessThanOrEqual(budget);
      expect(out.lines.join('\n').length).toBeLessThanOrEqual(budget);
    }
    expect(proceduralLine(f(9, 'procedural', 'quand le build casse -> relancer'))).toBe('- quand le build casse → relancer (graph #9)');
    // A description that opens with its subject and a colon does not name it twice.
    expect(formatFacts([f(7, 'semantic', 'shop: git gc failed with "x"')], 1000).lines).toEqual([
      '- shop: git gc failed with "x" (graph #7)',
    ]);
  });
});

describe('cross-project relevance', () => {
  it('is (shared/total deps) x 0.6 + 0.4 when any other entity is shared', () => {
    expect(crossProjectRelevance(0, 10, 0)).toBe(0);
    expect(crossProjectRelevance(5, 10, 0)).toBe(0.3);
    expect(crossProjectRelevance(5, 10, 1)).toBe(0.7);
    expect(crossProjectRelevance(10, 10, 3)).toBe(1);
    expect(crossProjectRelevance(0, 0, 2)).toBe(0.4);
    expect(crossProjectRelevance(3, 0, 0)).toBe(0);
  });
});
