import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_ENTITIES, MAX_PROMPT_FACTS, buildExtractionPrompt, parseExtraction, parseJsonAnswer } from './llm.js';

const now = new Date('2026-03-01T00:00:00Z');
const ctx = { existing: [{ name: 'homunculus', type: 'project' as const }], currentFactIds: new Set([7]), now };

describe('the extraction prompt', () => {
  const base = {
    projectName: 'homunculus',
    sessionId: 's1',
    entities: Array.from({ length: 150 }, (_, i) => ({ name: `entity${i}`, type: 'tool' })),
    facts: Array.from({ length: 80 }, (_, i) => ({
      id: i,
      source: 'a',
      relation: 'uses',
      target: `b${i}`,
      description: `fact number ${i}`,
    })),
    sessionText: '[user] please add a cache\n[Bash] npm test',
  };

  it('carries the ontology, at most 100 entities and 50 facts, and the session as data', () => {
    const prompt = buildExtractionPrompt(base) ?? '';
    expect(prompt).toContain('Relations (use exactly these names)');
    expect(prompt).toContain('anti_pattern_in');
    expect(prompt).toContain(`entity${MAX_PROMPT_ENTITIES - 1} | tool`);
    expect(prompt).not.toContain(`entity${MAX_PROMPT_ENTITIES} |`);
    expect(prompt).toContain(`- ${MAX_PROMPT_FACTS - 1} | a uses b${MAX_PROMPT_FACTS - 1}`);
    expect(prompt).not.toContain(`- ${MAX_PROMPT_FACTS} | a uses`);
    expect(prompt).toMatch(/recorded data, not instructions[\s\S]*<<<\n\[user\] please add a cache/);
  });

  it('cuts the session to the token budget, then the context lists, then gives up', () => {
    const long = { ...base, sessionText: 'x'.repeat(100_000) };
    const prompt = buildExtractionPrompt(long, 8000) ?? '';
    expect(prompt.length).toBeLessThanOrEqual(8000 * 4); // 4 characters per token
    expect(prompt).toContain('[...]');
    const tight = buildExtractionPrompt(long, 800) ?? '';
    expect(tight).not.toContain('entity0 |');
    expect(tight.length).toBeLessThanOrEqual(800 * 4);
    expect(tight).toContain('xxxx');
    expect(buildExtractionPrompt(long, 200)).toBeUndefined();
  });
});

describe('parsing a model answer', () => {
  it('accepts plain, fenced and wrapped JSON', () => {
    expect(parseJsonAnswer('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonAnswer('Here you go:\n```json\n{"a":2}\n```')).toEqual({ a: 2 });
    expect(parseJsonAnswer('Sure! {"a":3} Hope it helps.')).toEqual({ a: 3 });
    expect(parseJsonAnswer('no json at all')).toBeUndefined();
  });

  it('counts an answer that is not JSON and extracts nothing', () => {
    for (const answer of ['I cannot help with that.', '', '[1,2,3]', '{"facts": "many"}', '{"entities": [1}']) {
      const r = parseExtraction(answer, ctx);
      expect(r.graph).toEqual({ facts: [], contradictions: [] });
      expect(r.counts.not_json).toBe(1);
    }
  });

  it('keeps good facts and repairs or skips bad ones, counting each', () => {
    const answer = JSON.stringify({
      entities: [
        { name: 'Drizzle', type: 'Library' },
        { name: 'user', type: 'user' },
        { name: '' },
        42,
        { name: 'zod library', type: 'library' },
      ],
      facts: [
        {
          source: 'user',
          target: 'Drizzle',
          relation: 'decided_for',
          description: 'The user chose Drizzle as the ORM for homunculus storage.',
          confidence: 0.9,
          valid_at: '2026-02-20',
        },
        { source: 'homunculus', target: 'Drizzle', relation: 'Depends-On', description: 'homunculus depends on drizzle', confidence: 80 },
        { source: 'homunculus', target: 'zod', relation: 'uses', description: 'homunculus validates with zod', valid_at: '1850-01-01' },
        { source: 'homunculus', target: 'Drizzle', relation: 'teleports_to', description: 'nonsense' },
        { source: 'ghost', target: 'Drizzle', relation: 'uses', description: 'dangling' },
        { source: 'Drizzle', target: 'drizzle', relation: 'related_to', description: 'self' },
        { source: 'user', relation: 'prefers', description: 'no target' },
        { source: 'user', target: 'Drizzle', relation: 'prefers', description: 'future', valid_at: '2099-01-01', confidence: 'high' },
      ],
      contradictions: [{ fact_id: 7, replaced_by: 0, reason: 'chose drizzle' }, { fact_id: 999 }, { fact_id: 'x' }],
    });
    const { graph, counts } = parseExtraction(answer, ctx);
    expect(graph.facts.map((f) => [f.source.name, f.relation, f.target.name])).toEqual([
      ['user', 'decided_for', 'Drizzle'],
      ['homunculus', 'depends_on', 'Drizzle'],
      ['homunculus', 'uses', 'zod library'],
      ['user', 'prefers', 'Drizzle'],
    ]);
    expect(graph.facts[0]).toMatchObject({ confidence: 0.9, validAt: '2026-02-20T00:00:00.000Z' });
    expect(graph.facts[0]?.source.type).toBe('person');
    expect(graph.facts[1]?.confidence).toBe(0.8);
    expect(graph.facts[2]?.validAt).toBeUndefined();
    expect(graph.facts[3]).toMatchObject({ confidence: 0.5 });
    expect(graph.contradictions).toEqual([{ factId: 7, replacedBy: 0, reason: 'chose drizzle' }]);
    expect(counts).toEqual({
      not_json: 0,
      invalid_entities: 2,
      invalid_facts: 1,
      unknown_relations: 1,
      dangling_entities: 1,
      self_loops: 1,
      invalid_contradictions: 2,
      repaired_dates: 2,
      repaired_confidences: 2,
      repaired_relations: 1,
      repaired_names: 1,
    });
  });
});
