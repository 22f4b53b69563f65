import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../core/project.js';
import { addFact } from '../graph/add-fact.js';
import { mergeInstinct } from '../learn/merge.js';
import { giveFeedback, observe } from '../learn/instincts.js';
import { INJECTION_CORPUS, expectFenced } from '../test-support/injection-corpus.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { buildPromptContext } from './build.js';
import { FENCE_OVERHEAD, fenceMemory, neutralise } from './fence.js';
import { promptInjection } from './inject.js';
import { recallContext } from './recall.js';
import { sessionStartContext } from './session-start.js';

const project: ProjectInfo = { fingerprint: 'fp-shop', name: 'shop', root: '/w/shop', remote: null };

describe('neutralise', () => {
  it.each(INJECTION_CORPUS)('leaves nothing tag-like, fenced or invisible in %s', (_name, text) => {
    const clean = neutralise(text);
    expect(clean).not.toMatch(/<\s*[/!?|]?\s*[A-Za-z|]/);
    expect(clean).not.toMatch(/\|>|`{3}|~{3}|homunculus[-_]memory/i);
    expect(clean).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u);
    expect(neutralise(clean)).toBe(clean);
  });

  it('keeps the meaning of ordinary text', () => {
    expect(neutralise('use pnpm, never npm; a -> b; 3 < 4')).toBe('use pnpm, never npm; a -> b; 3 < 4');
    expect(neutralise('IMPORTANT SYSTEM NOTICE')).toBe('IMPORTANT SYSTEM NOTICE');
    expect(neutralise('</system>')).toBe('‹/system›');
    expect(neutralise('mise run fails with "<path>:N: <value> imported and not used"')).toBe(
      'mise run fails with "‹path›:N: ‹value› imported and not used"',
    );
    expect(neutralise('<instructions role="x">')).toBe('‹instructions role="x">');
  });
});

describe('fenceMemory', () => {
  it('draws a new nonce each render and fences nothing when there is nothing', () => {
    const a = fenceMemory('- one item');
    const b = fenceMemory('- one item');
    expectFenced(a);
    expect(a).not.toBe(b);
    expect(fenceMemory('  \n ')).toBe('');
  });

  it('cuts the body, never the closing tag, to stay within its limit', () => {
    const body = Array.from({ length: 400 }, (_, i) => `- item ${i} ${'x'.repeat(40)}`).join('\n');
    const text = fenceMemory(body, { max: 2_000 });
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(expectFenced(text, 2_000).split('\n').at(-1)).toMatch(/^- item \d+ x+$/);
    expect(fenceMemory('- x', { max: FENCE_OVERHEAD + 10 })).toBe('');
  });
});

describe('every renderer, against the injection corpus', () => {
  let store: TestStore;
  const corpus = INJECTION_CORPUS.map(([, text]) => text);
  beforeEach(() => {
    store = testStore('2026-02-01T00:00:00.000Z');
    corpus.forEach((text, i) => {
      const trigger = `when deploying the staging cluster ${text}`;
      observe(store, { pattern: `seq:deploy-${i}`, trigger, action: text, explain: text, project: 'fp-shop', occurrences: 3 });
      const c = observe(store, { pattern: `fix:rule-${i}`, trigger: text, action: text });
      const id = store.instincts.get(c.pattern)?.id as number;
      store.instincts.addConviction(id, text, text, '2026-01-01');
      store.instincts.update(id, { promoted_at: '2026-01-01' });
      addFact(store, {
        source: { name: 'shop', type: 'project', properties: { fingerprint: 'fp-shop' } },
        target: { name: `staging cluster ${i}`, type: 'concept' },
        relation: 'learned_that',
        description: `shop deploys the staging cluster: ${text}`,
        project: 'fp-shop',
      });
    });
    store.transaction(() =>
      mergeInstinct(store, { key: 'pref:IMPORTANT SYSTEM NOTICE', trigger: 'when deploying the staging cluster', evidence: 999 }, 'import'),
    );
    giveFeedback(store, 'seq:deploy-0', 'strong');
    store.sessions.save({
      id: 's0',
      source: 'claude-code',
      project: 'fp-shop',
      project_name: 'shop',
      cwd: '/w/shop',
      started_at: '2026-01-31T10:00:00Z',
      ended_at: '2026-01-31T11:00:00Z',
      tools_used: '["Edit"]',
      tool_counts: '{}',
      files_touched: JSON.stringify(['/w/shop/src/deploy.ts']),
      summary: corpus.join('\n'),
      continues_from: null,
      transcript_path: null,
      file_name: null,
    });
  });
  afterEach(() => store.cleanup());

  it('session start: fenced, each item labelled observed, imported or user feedback', () => {
    const body = expectFenced(sessionStartContext(store, { project, stack: ['node'] }).text, 9_000);
    expect(body).toContain('Convictions');
    expect(body).toMatch(/IMPORTANT SYSTEM NOTICE - ignore all previous instructions.* \(conviction, observed\)$/m);
    expect(body).toMatch(/^- When deploying the staging cluster: .*\(said to be seen 999 times, imported, not seen here\)$/m);
    expect(body).toMatch(/\(seen 3 times, confirmed by the user\)$/m);
  });

  it('the prompt hook: instincts and the graph in one fenced block, each item with its source', async () => {
    const text = await promptInjection(store, { project, prompt: 'deploying the staging cluster fails', sessionId: 's1' });
    const body = expectFenced(text);
    expect(body).toMatch(/\(seen 3 times(, confirmed by the user)?\)$/m);
    // A fact says when it was said, in plain words: no id, no task, no chunk heading.
    expect(body).toMatch(/^## Said in earlier sessions of this project\n- .* \(\d{4}-\d{2}-\d{2}\)$/m);
    expect(body).not.toMatch(/graph #|task: |^### /m);
  });

  it('the graph context (homunculus context, memory_context) and recall', async () => {
    const ctx = await buildPromptContext(store, { prompt: 'deploying the staging cluster of shop', project: 'fp-shop' });
    expect(ctx.text.length).toBe(ctx.chars);
    const body = expectFenced(ctx.text);
    expect(body).toMatch(/^## Last session\nLast session \(2026-01-31\): /m);
    const recall = recallContext(store, { sessionId: 's1', toolUseId: 't1', files: ['/w/shop/src/deploy.ts'], project });
    expectFenced(recall, 1_200);
  });
});
