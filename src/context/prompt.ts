/**
 * Prompt-time context: instincts that clearly match what the user just asked. Nothing is
 * better than noise, so an instinct must share enough of the prompt's terms; confidence
 * ranks, it does not gate: a rule unseen for months has decayed to the floor, and is
 * deprioritised, never silenced (its line says when it was last seen). The result stays
 * within a small character budget. It is a section of the prompt's fenced memory block
 * (inject.ts), not a block of its own.
 */
import type { ProjectInfo } from '../core/project.js';
import { currentConfidence, heldBackReport } from '../learn/records.js';
import type { Store } from '../store/store.js';
import type { InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import { matchedTerms } from '../text/stem.js';
import { authoredText } from '../text/authored.js';
import { fitToBudget } from './format.js';
import { categoryRank, fromRow, mergeSimilar, plainLine } from './plain.js';
import { PROGRAMS, type RankedInstinct, matchInstincts } from './rank.js';
import { seenHere } from './seen-here.js';
import { ASSESS_FEEDBACK_KEY, handsFeedback, requestsIn } from '../learn/mine/requests.js';

const PROMPT_BUDGET = 1_500;
const PROMPT_LIMIT = 5;

/** Distinct prompt terms an instinct must contain: 1 for a short prompt, up to 3 for a long one. */
export function requiredMatches(terms: number): number {
  if (terms <= 2) return 1;
  if (terms <= 6) return 2;
  return 3;
}

/** The words of a project's name: every instinct of the project says "in cli", no prompt asks for it. */
export const nameWords = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * An instinct is matched on when it applies (its trigger and title, not the examples of its
 * action). Silence beats noise: a long prompt shares a few words with many triggers, so it
 * must share three. (Two for any prompt doubled the share of prompts given something
 * irrelevant on bench:context, 17% to 33%, for a third more of what was expected.)
 */
export function isRelevant(hit: Pick<RankedInstinct, 'weight' | 'terms' | 'covers'>): boolean {
  return hit.covers || hit.weight >= requiredMatches(hit.terms);
}

/**
 * "Do not run X unless asked" is for when the user asks something else: a prompt that names X
 * is the user asking for it. X is what the rule's trigger quotes (`git commit` / `git push`).
 * `known` is other rules' text: the variants of a family they quote (`mise run test:integration`)
 * are named by the prompt as much as those of the rule's own examples.
 */
export function asksForRefused(row: Pick<InstinctRow, 'trigger' | 'action' | 'metadata'>, prompt: string, known = ''): boolean {
  const miner = parseJsonObject(row.metadata).miner;
  // Said in words ("don't run the e2e suite unless I ask"): X is what its trigger is about to do.
  if (miner === 'preference' && /\bunless\b/i.test(row.action)) {
    const object = /^when about to \S+\s+(.+)$/.exec(row.trigger)?.[1] ?? '';
    const words = (object.match(/[a-z0-9]+/gi) ?? []).filter((w) => !/^(?:the|our|my|any|a|an)$/i.test(w));
    // "e2e" names the suite; "suite" alone would be any of them.
    const named = words.filter((w) => !/^(?:suites?|tests?|folders?|director(?:y|ies)|dir|files?|scripts?)$/i.test(w));
    return matchedTerms(named.length ? named : words, prompt) > 0;
  }
  if (miner !== 'rejection') return false;
  const words = (row.trigger.match(/`[^`]+`/g) ?? [])
    .flatMap((code) => namedBy(code.slice(1, -1), `${row.action} ${known}`))
    .filter((w) => !PROGRAMS.has(w));
  return matchedTerms(words, prompt) > 0;
}

/**
 * The words that ask for a refused command. A family (`mise run test:*`) is asked for by naming
 * one of its variants (the `ci` of `mise run test:ci` its examples show): "are the tests passing?"
 * does not ask for the slow suites.
 */
function namedBy(code: string, action: string): string[] {
  const lower = code.toLowerCase();
  if (!lower.endsWith(':*')) return lower.match(/[a-z]+/g) ?? [];
  const family = lower.slice(0, -1);
  return (action.toLowerCase().match(/`[^`]+`/g) ?? [])
    .map((c) => c.slice(1, -1))
    .filter((c) => c.startsWith(family) && c !== lower)
    .flatMap((c) => c.slice(family.length).match(/[a-z]+/g) ?? []);
}

/** Words that ask to run the tests or speak of their result. */
const RUNNING =
  /\b(?:run|runs|rerun|running|pass|passes|passing|passed|fail|fails|failing|failed|failures?|green|red|ci|flaky|broken?|breaks)\b|\bfix(?:ing)? (?:\S+ ){0,2}tests?\b/i;

/** What a prompt is, read once for every candidate rule. */
interface Situation {
  /** It hands over review feedback to weigh (requests.ts handsFeedback). */
  feedback: boolean;
  /** The requests it makes, as request keys' tails (requests.ts requestsIn). */
  requests: ReadonlySet<string>;
  /** It asks to run the tests or speaks of their result. */
  running: boolean;
}

export const situationOf = (prompt: string): Situation => ({
  feedback: handsFeedback(prompt),
  requests: requestsIn(prompt),
  // A method named in prose (`t.Run()`) is code, not the user asking to run anything.
  running: RUNNING.test(authoredText(prompt).replace(/\b[\w$]+\.[\w$]+\b(?:\(\))?/g, ' ')),
});

/**
 * A prompt the rule's own miner would read as its situation, whatever words it shares with the
 * rule's trigger: "eval this feedback: …" hands over feedback and asks for a judgement; "can you
 * look at the changes in this branch" makes the request a review rule was learned from.
 */
export function inSituation(row: Pick<InstinctRow, 'key'>, situation: Situation): boolean {
  if (row.key === ASSESS_FEEDBACK_KEY) return situation.feedback;
  const request = /\/request=([a-z0-9-]+)$/.exec(row.key)?.[1];
  return request !== undefined && situation.requests.has(request);
}

/**
 * "When you need to run the tests" is for a prompt that asks to run them or speaks of their
 * result; one about what tests say or cover ("these helpers lack unit tests", "do we have test
 * coverage for this?") is about writing code, and the task that runs them is noise beside it.
 */
export const writesTests = (row: Pick<InstinctRow, 'trigger' | 'metadata'>, situation: Situation): boolean =>
  !situation.running && /^when you need to run the tests\b/i.test(row.trigger) && parseJsonObject(row.metadata).miner === 'project-command';

type Specificity = Pick<RankedInstinct, 'core' | 'shared'>;

/**
 * A rule for a whole subject ("when you need to run the tests") yields to a matched rule for a
 * kind of it that the prompt names as well ("the integration tests"): the specific one says
 * how, and the general one is noise beside it. Only a rule whose trigger is one or two words
 * yields, to one that shares those and more of the prompt; two rules about different things
 * that share some words (answering PR comments, weighing review feedback) both stay.
 */
export function mostSpecific<T extends Specificity>(hits: readonly T[]): T[] {
  const within = (a: readonly string[], b: readonly string[]): boolean => a.every((t) => b.includes(t));
  const yields = (a: T): boolean =>
    a.core.length > 0 &&
    hits.some((b) => b !== a && b.shared.length > a.shared.length && within(a.core, b.shared) && within(a.shared, b.shared));
  return hits.filter((a) => !yields(a));
}

interface PromptContextOptions {
  budget?: number;
  limit?: number;
  /** Instinct keys the agent already holds: left out once the most specific rules are chosen. */
  skip?: ReadonlySet<string>;
  /** Told the keys of the lines given. */
  onGiven?: (keys: string[]) => void;
}

export function promptContext(store: Store, project: ProjectInfo, prompt: string, options: PromptContextOptions = {}): string {
  const items = matchingItems(store, project, prompt, options.limit ?? PROMPT_LIMIT, options.skip);
  if (items.length === 0) return '';
  const head = ['## Learned in earlier sessions, matching this prompt'];
  const fitted = fitToBudget(
    head,
    items.map((item) => item.line),
    [],
    options.budget ?? PROMPT_BUDGET,
  );
  options.onGiven?.(items.slice(0, fitted.shown).flatMap((item) => item.keys));
  return fitted.text;
}

/**
 * The learned rules a text clearly asks about, as plain lines (the prompt hook's, and `query`'s
 * "learned" part): the project's and the global ones, at most `limit` lines once merged.
 */
export function matchingItems(
  store: Store,
  project: Pick<ProjectInfo, 'fingerprint' | 'name'>,
  prompt: string,
  limit = PROMPT_LIMIT,
  skip: ReadonlySet<string> = new Set(),
): { line: string; keys: string[] }[] {
  const now = store.clock.now();
  const query = { project: project.fingerprint, limit: limit * 4, ignore: nameWords(project.name) };
  const found = matchInstincts(store.instincts, { ...query, text: prompt });
  const asked = situationOf(prompt);
  // A pasted bot finding may share no word with the rule for weighing feedback: asked for by its subject, it comes along.
  const weighing =
    asked.feedback && !found.some((hit) => hit.row.key === ASSESS_FEEDBACK_KEY)
      ? matchInstincts(store.instincts, { ...query, text: 'feedback' }).filter((hit) => hit.row.key === ASSESS_FEEDBACK_KEY)
      : [];
  const candidates = [...found, ...weighing];
  const known = candidates.map((hit) => `${hit.row.trigger} ${hit.row.action}`).join(' ');
  const situated = candidates.map((hit) => (inSituation(hit.row, asked) ? { ...hit, covers: true } : hit));
  const matched = situated.filter((hit) => isRelevant(hit) && !asksForRefused(hit.row, prompt, known) && !writesTests(hit.row, asked));
  // Skipped after the most specific rule is chosen: one already given must not let a vaguer one through.
  const hits = mostSpecific(matched)
    .filter((hit) => !skip.has(hit.row.key))
    .map((hit) => ({ ...hit, score: currentConfidence(hit.row, now) }));
  const provenance = store.instincts.provenance(hits.map((h) => h.row.id));
  const given = hits.filter((hit) => !heldBackReport(hit.row, provenance.get(hit.row.id)));
  if (given.length === 0) return [];
  // Preferences and corrections first, then fixes, each by confidence times relevance; the
  // limit counts lines, once merged (ten rules of one linter are one line, not ten slots).
  const rows = new Map(
    seenHere(
      store,
      given.map((h) => h.row),
      project,
    ).map((row, i) => [given[i]?.row.id, row]),
  );
  const ranked = given
    .map((hit) => ({ ...hit, rank: hit.score * hit.relevance }))
    // A rule whose whole subject the prompt names ("run the tests") answers it before one that shares some words.
    .sort(
      (a, b) =>
        Math.min(categoryRank(a.row), 2) - Math.min(categoryRank(b.row), 2) || Number(b.covers) - Number(a.covers) || b.rank - a.rank,
    )
    .map((hit) => ({ ...fromRow(rows.get(hit.row.id) ?? hit.row, provenance, now), weight: hit.weight }));
  // Of the same advice for other code, the one that shares most of the prompt leads its line, then the most seen.
  return mergeSimilar(ranked, (a, b) => b.weight - a.weight || b.evidence - a.evidence)
    .slice(0, limit)
    .map((group) => ({ line: plainLine(group, 400), keys: group.map((r) => r.name) }));
}

/** matchingItems' lines alone. */
export const matchingLines = (...args: Parameters<typeof matchingItems>): string[] => matchingItems(...args).map((item) => item.line);
