/**
 * Matching instincts against a query by their terms, for session start and prompt-time
 * injection: SQLite FTS5 BM25 over an OR of the query's terms, plus how many terms each
 * instinct contains (the prompt hook's relevance bar). Hooks use it rather than the hybrid
 * search (search/instincts-rank.ts) because it needs no embedding model and loads fast.
 */
import { isDocumented } from '../learn/documented.js';
import type { InstinctRepository, InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import { stem, stemSet } from '../text/stem.js';
import { words } from '../text/words.js';
import { authoredText } from '../text/authored.js';
import { promptTerms } from '../text/terms.js';
import { realTrigger, saysSomething, withoutExamples } from './plain.js';

interface RankQuery {
  text: string;
  /** Only global instincts and this project's. */
  project?: string;
  limit: number;
  /** Leave out instincts already promoted to convictions (default true). */
  excludePromoted?: boolean;
  /** Words that name where the prompt was typed (the project's name), not what it asks. */
  ignore?: readonly string[];
}

export interface RankedInstinct {
  row: InstinctRow;
  /** 0..1: normalised BM25 (|s| / (1 + |s|)). */
  relevance: number;
  /** How many distinct query terms the instinct's text contains. */
  matched: number;
  /** The stems of those terms. */
  shared: string[];
  /** What its trigger is about in one or two words (stems), or none when it takes more to say. */
  core: string[];
  /** The same, a term that few of the instincts in scope use counting RARE_WEIGHT. */
  weight: number;
  terms: number;
  /** The prompt names all that the instinct's trigger is about ("run the tests": tests), in one or two words. */
  covers: boolean;
}

/**
 * Words every trigger uses to say when ("when you need to run", "about to run … without being
 * asked"), with their inflections: the crude stem keeps "change" apart from "changes".
 */
const TRIGGER_WORDS = new Set(
  'run runs running asked asking write writing code user users ready change changes changed changing without'.split(' '),
);

/**
 * What a prompt asks done, whatever it is done to ("can you fix it?", "update again please",
 * "create a pr"): a rule that shares only these with a prompt is about something else it names
 * ("fix its merge conflicts", `create_issue`).
 */
const REQUEST_WORDS = new Set(
  'fix fixes fixing update updates updating create creating check checking add adding make making implement do'.split(' '),
);

const TRIGGER_STEMS = new Set([...TRIGGER_WORDS, ...REQUEST_WORDS].map(stem));

/** What a trigger is about in one or two words, or nothing when it takes more to say. */
function triggerCore(row: InstinctRow, ignore: readonly string[]): string[] {
  if (!realTrigger(row.key, row.trigger)) return [];
  const core = askedTerms(withoutExamples(row.trigger), ignore).filter((t) => !TRIGGER_WORDS.has(t));
  return core.length <= 2 ? core : [];
}

/** A term that few instincts use (merge, conflicts, feedback) says more about which one applies than one many use (tests, changes). */
const RARE_WEIGHT = 1.5;
const rareBelow = (instincts: number): number => Math.max(2, Math.ceil(instincts * 0.05));

/**
 * What an instinct is about, for the relevance bar: when it applies (its trigger and title),
 * not the examples in its action. One recorded without a trigger is about all it says.
 */
const aboutText = (row: InstinctRow): string =>
  realTrigger(row.key, row.trigger)
    ? `${withoutExamples(row.trigger)} ${withoutExamples(row.title)}`
    : `${row.key} ${row.title} ${row.action} ${row.explain}`;

/**
 * A path names a file by its last part; its folders (/Users/me/src/repo/cmd/app) say where it
 * lives, not what the prompt asks. URLs are kept whole.
 */
export const withoutFolders = (text: string): string =>
  text.replace(/\S+/g, (token) =>
    !token.includes('://') && (token.match(/\//g) ?? []).length >= 2 ? (token.split('/').filter(Boolean).at(-1) ?? '') : token,
  );

/** What a prompt asks, as search terms: the words that name where it was typed (the project's name) left out. */
export function askedTerms(text: string, ignore: readonly string[] = []): string[] {
  const ignored = new Set(ignore.map((w) => w.toLowerCase()));
  const stems = new Set<string>();
  const named = withoutFolders(text);
  // Two lower-case letters rarely name a thing, except the few people type so all day ("the pr comments").
  const typed = LOWER_CASE_ACRONYMS.filter((a) => new RegExp(`\\b${a}s?\\b`).test(named));
  // "tests" and "testing" are one thing asked about, not two matches.
  return [...promptTerms(named), ...typed].filter((t) => !ignored.has(t) && !stems.has(stem(t)) && !!stems.add(stem(t)));
}

const LOWER_CASE_ACRONYMS = ['pr', 'ci'];

/** Every word of the trigger's core (each part of a snake_case name) is among the prompt's stems. */
const covers = (core: readonly string[], stems: ReadonlySet<string>): boolean =>
  core.length > 0 && core.every((t) => t.split('_').every((part) => stems.has(stem(part))));

/** Programs a command names before what it does: `mise run test:ci` is told apart by test and ci. */
export const PROGRAMS = new Set(['git', 'gh', 'mise', 'npm', 'pnpm', 'yarn', 'run', 'make', 'go', 'cargo']);

/** "Use pnpm, not npm" (a correction's trigger: "when choosing between pnpm and npm") applies whenever the user names what to avoid. */
function namesAvoided(row: InstinctRow, authored: ReadonlySet<string>): boolean {
  const avoided = /^when choosing between .+ and (.+)$/i.exec(row.trigger)?.[1] ?? '';
  const named = [...words(avoided)];
  return named.length > 0 && named.every((w) => authored.has(stem(w)));
}

/** Whether a rule is about the program itself, its trigger naming it in words outside its commands ("choosing between pnpm and npm"). */
const namesProgram = (text: string, program: string): boolean => [...words(text.replace(/`[^`]+`/g, ' '))].includes(program);

/**
 * The stems that tell a code span (a command, a path) apart: its file name's parts, its command's
 * words after the program. A file named by one word is named by that word as written (EXACT):
 * "commit this" is not about `committed.go`.
 */
function spanStems(code: string, ignored: ReadonlySet<string>): string[] {
  // A path is named by its file's name, without its folders or extension.
  const names = code.split(/\s+/).map((token) => token.split('/').filter(Boolean).at(-1) ?? '');
  const parts = [...words(names.join(' ').replace(/\.[a-z0-9]{1,5}\b/gi, ' '))]
    .flatMap((w) => w.split('_'))
    .filter((w) => w.length > 1 && !/^\d+$/.test(w) && !PROGRAMS.has(w) && !ignored.has(w));
  const oneFile = names.length === 1 && /\.[a-z0-9]{1,5}$/i.test(names[0] as string);
  return oneFile && parts.length === 1 ? [`${EXACT}${parts[0]}`] : parts.map(stem);
}

/** Marks a word that counts only as written, beside the stems of a text. */
const EXACT = '=';

/** A text's stems and its words as written (EXACT), for spans that take either. */
const stemsAndWords = (text: string): Set<string> => {
  const out = stemSet(text);
  for (const w of words(text)) out.add(`${EXACT}${w}`);
  return out;
};

/** Whether `about` holds a prompt term, by its stem or as written. */
const holds = (about: ReadonlySet<string>, term: string): boolean => about.has(stem(term)) || about.has(`${EXACT}${term}`);

/**
 * What an instinct is about, as stems a prompt can share. A code span is an identifier, shared
 * whole or not at all: it counts only when the prompt names all that tells it apart, so "are
 * the tests passing?" does not reach a rule about `wingman_test.go`, nor one for what follows
 * `mise run test:ci`, and "the wingman review" does reach `wingman_review.go`.
 */
function aboutStems(row: InstinctRow, text: string, asked: ReadonlySet<string>, ignored: ReadonlySet<string>): Set<string> {
  const out = templated(row, text) ? new Set<string>() : stemSet(text.replace(/`[^`]+`/g, ' '));
  for (const stems of namedSpans(text, asked, ignored)) for (const s of stems) out.add(s);
  return out;
}

/** The distinguishing stems of each code span of `text` that `asked` names whole. */
function namedSpans(text: string, asked: ReadonlySet<string>, ignored: ReadonlySet<string>): string[][] {
  return (text.match(/`[^`]+`/g) ?? [])
    .map((span) => spanStems(span.slice(1, -1), ignored))
    .filter((stems) => stems.length > 0 && stems.every((s) => asked.has(s)));
}

/** A sequence's or a co-edit's trigger written around its commands or files ("after `X` passes") is about them alone. */
const templated = (row: InstinctRow, text: string): boolean =>
  TEMPLATED.has(row.category) && !!realTrigger(row.key, row.trigger) && /`[^`]+`/.test(text);

/** The user named one of the commands or files a templated trigger is about: all it is about. */
const namesTemplate = (row: InstinctRow, text: string, authored: ReadonlySet<string>, ignored: ReadonlySet<string>): boolean =>
  templated(row, text) && namedSpans(text, authored, ignored).length > 0;

/** Categories whose triggers a miner writes from a template around code. */
const TEMPLATED = new Set(['sequence', 'combo']);

/**
 * A file name or a task written bare ("wingman_test.go", "test:ci") as a span, so it is matched
 * whole like quoted code. A folder ("docs/architecture/") stays words: "the docs" names it.
 */
const asCode = (text: string): string =>
  text.replace(/`[^`]*`|(?<![\w`/.-])([\w./-]*\w\.[a-z][a-z0-9]{0,4}|[\w-]+:[\w*-]+)(?![\w/])/g, (m, bare: string | undefined) =>
    bare ? `\`${bare}\`` : m,
  );

/** Two words stand together in a prompt when they are at most this many words apart ("the comments on the PR"). */
const PHRASE_SPAN = 6;

/**
 * A match made of exactly two words that stand far apart in a long prompt ("the changes in this
 * branch … update docs") is two coincidences, not the phrase the trigger says ("update the branch").
 */
function apart(shared: readonly string[], sequence: readonly string[]): boolean {
  if (shared.length !== 2 || sequence.length <= PHRASE_SPAN * 2) return false;
  const [a, b] = shared.map(stem) as [string, string];
  const at = (s: string): number[] => sequence.flatMap((w, i) => (w === s ? [i] : []));
  const bs = at(b);
  return !at(a).some((i) => bs.some((j) => Math.abs(i - j) <= PHRASE_SPAN));
}

export function matchInstincts(instincts: Pick<InstinctRepository, 'matchTerms' | 'triggerUse'>, query: RankQuery): RankedInstinct[] {
  const terms = askedTerms(query.text, query.ignore);
  if (terms.length === 0 || query.limit <= 0) return [];
  const hits = instincts
    // Each term and its crude stem: FTS5's porter keeps "linter" whole, and a rule about `lint` should still come up.
    .matchTerms([...new Set(terms.flatMap((t) => [t, stem(t)]))], {
      project: query.project,
      excludePromoted: query.excludePromoted,
      // What the user marked wrong is never given to an agent, however often it is seen.
      excludeRefuted: true,
      limit: query.limit,
    })
    // What the project's CLAUDE.md or AGENTS.md already says, the agent has read.
    .filter(({ row }) => !isDocumented(parseJsonObject(row.metadata)) && saysSomething(row));
  if (hits.length === 0) return [];
  // A code span is named by any word of the prompt, short ones too (`test:ci`: "ci").
  const asked = stemsAndWords(withoutFolders(query.text));
  const ignored = new Set((query.ignore ?? []).map((w) => w.toLowerCase()));
  // What each hit is about, its bare file names and tasks written as code (asCode), read once.
  const textOf = new Map(hits.map(({ row }) => [row.id, asCode(aboutText(row))]));
  const aboutOf = new Map(hits.map(({ row }) => [row.id, aboutStems(row, textOf.get(row.id) ?? '', asked, ignored)]));
  // Only the terms some hit shares need a count.
  const sharedByAny = terms.filter((t) => [...aboutOf.values()].some((about) => holds(about, t)));
  const used = instincts.triggerUse(sharedByAny, { project: query.project, excludePromoted: query.excludePromoted });
  // Naming a trigger's whole subject counts when the user wrote it, not when a pasted log or review does.
  const authored = stemsAndWords(authoredText(query.text));
  const rare = rareBelow(used.total);
  const sequence = [...words(withoutFolders(query.text))].map(stem);
  return hits.map(({ row, bm25 }) => {
    const s = Math.abs(bm25);
    const about = aboutOf.get(row.id) ?? new Set<string>();
    const shared = terms.filter((t) => holds(about, t));
    const core = triggerCore(row, query.ignore ?? []);
    return {
      row,
      relevance: s / (1 + s),
      matched: shared.length,
      shared: shared.map(stem),
      core: core.flatMap((t) => t.split('_')).map(stem),
      // The words every trigger uses to say when ("about to run", "writing code") back up a match; alone they make none.
      // Nor does the program every task of a project runs through: "mise run lint fails" is not about `mise run test`;
      // unless the rule is about that program ("use pnpm, not npm"): then "install it with npm" asks about it.
      weight:
        shared.every((t) => TRIGGER_STEMS.has(stem(t)) || (PROGRAMS.has(t) && !namesProgram(row.trigger, t))) || apart(shared, sequence)
          ? 0
          : shared.reduce((w, t) => w + ((used.of.get(t) ?? 0) <= rare ? RARE_WEIGHT : 1), 0),
      terms: terms.length,
      covers: covers(core, authored) || namesTemplate(row, textOf.get(row.id) ?? '', authored, ignored) || namesAvoided(row, authored),
    };
  });
}
