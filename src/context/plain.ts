/**
 * Instincts as a person would write them for a colleague: what to do and when, with how often
 * it was seen, never an internal key or a bracketed category. Instincts that give the same
 * advice for other code (`mise run lint`, `mise run fmt`) or share a trigger (a dozen rules of
 * one linter) read as one line. Pure functions.
 */
import { type InstinctView, reportedByAgent } from '../learn/records.js';
import type { InstinctProvenance, InstinctRow } from '../store/instincts.js';
import { DAY_MS } from '../core/clock.js';
import { stem, stemSet } from '../text/stem.js';
import { oneLine } from './format.js';
import { counted } from '../core/text.js';

/** What a line is made of: a stored instinct or its contract view, with where it came from. */
export interface PlainInstinct {
  /** The key, only as a last resort for a group's identity; never shown. */
  name: string;
  category: string;
  trigger: string;
  action: string;
  title: string;
  evidence: number;
  imported?: boolean;
  /** Occurrences seen on this machine, when known: an import's count is only a claim. */
  local?: number;
  /** Reported by an agent over MCP rather than learned from sessions. */
  reported?: boolean;
  confirmed?: boolean;
  /** When it was last seen (ISO), set only when that is over a month before now: the agent weighs an old rule. */
  lastSeen?: string;
}

/** A month and more without a sighting is worth saying; a rule never expires (its score only falls to the floor). */
const STALE_AFTER_DAYS = 30;

const isStale = (lastSeen: string, now: Date): boolean => now.getTime() - Date.parse(lastSeen) > STALE_AFTER_DAYS * DAY_MS;

/** "Feb 2026". */
const monthOf = (iso: string): string => new Date(iso).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A trigger's example ("(e.g. "Build and test help message")") is one session's task, not when it applies. */
export const withoutExamples = (text: string): string => text.replace(/\s*\(e\.g\.[^)]*\)/g, '');

/** A trigger that only repeats the key's body (what `observe` records without one) says nothing. */
export const realTrigger = (key: string, trigger: string): string => (trigger.trim() === key.slice(key.indexOf(':') + 1) ? '' : trigger);

/**
 * Whether an instinct says anything beyond its key: one observed with no trigger, action or
 * explanation would be given as "- conc=test (seen 102 times)", which tells an agent nothing.
 */
export const saysSomething = (row: { key: string; trigger: string; action: string }): boolean => {
  const body = row.key.slice(row.key.indexOf(':') + 1).trim();
  return realTrigger(row.key, row.trigger) !== '' || (row.action.trim() !== '' && row.action.trim() !== body);
};

/** Whether an import made the instinct, or counted it up beyond what was observed here. */
const importedEvidence = (p: InstinctProvenance | undefined, evidence: number): boolean =>
  p !== undefined && (p.imported || p.local_evidence < evidence);

export const fromRow = (row: InstinctRow, provenance?: ReadonlyMap<number, InstinctProvenance>, now?: Date): PlainInstinct => {
  const lastSeen = now && isStale(row.last_seen, now) ? row.last_seen : undefined;
  return {
    name: row.key,
    category: row.category,
    trigger: realTrigger(row.key, row.trigger),
    action: row.action,
    title: row.title,
    evidence: row.evidence,
    // Created by an import, or counted up by one beyond what was observed here.
    imported: importedEvidence(provenance?.get(row.id), row.evidence),
    ...(provenance?.get(row.id) ? { local: provenance.get(row.id)?.local_evidence } : {}),
    reported: reportedByAgent(row.metadata),
    confirmed: provenance?.get(row.id)?.verdict === 'strong',
    ...(lastSeen ? { lastSeen } : {}),
  };
};

/** An instinct as the application shows it (a contract view, or the part of one a rule file needs). */
export const fromView = (
  v: Pick<InstinctView, 'pattern' | 'category' | 'evidence'> &
    Partial<Pick<InstinctView, 'trigger' | 'action' | 'title' | 'origin' | 'metadata' | 'local_evidence' | 'verdict'>>,
): PlainInstinct => ({
  name: v.pattern,
  category: v.category,
  trigger: realTrigger(v.pattern, v.trigger ?? ''),
  action: v.action ?? '',
  title: v.title ?? '',
  evidence: v.evidence,
  imported: v.origin === 'imported' || (v.local_evidence !== undefined && v.local_evidence < v.evidence),
  ...(v.local_evidence !== undefined ? { local: v.local_evidence } : {}),
  reported: v.metadata !== undefined && reportedByAgent(v.metadata),
  confirmed: v.verdict === 'strong',
});

/** Preferences and corrections first, then fixes, then the rest. */
const CATEGORY_ORDER: Readonly<Record<string, number>> = { preference: 0, fix_pattern: 1, combo: 2, sequence: 3 };
export const categoryRank = (i: { category: string }): number => CATEGORY_ORDER[i.category] ?? 4;

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const codeOf = (text: string): string[] => text.match(/`[^`]+`/g) ?? [];
/** An action with its code spans blanked: "Use the project's task `•` rather than ...". */
const shapeOf = (i: PlainInstinct): string => (codeOf(i.action).length ? i.action.replace(/`[^`]+`/g, '`•`').trim() : '');

const byEvidence = (a: PlainInstinct, b: PlainInstinct): number => b.evidence - a.evidence;

/**
 * Instincts grouped as one line each, in the order given (a group's first is its strongest).
 * Within a group (the same advice for other code, or one trigger's rules) the most seen leads
 * by default: "are the tests passing?" is `mise run test`, with the slower suites after
 * "Likewise"; the linter's rule seen 14 times before those seen 3. `lead` orders them
 * otherwise (the prompt hook: the one the prompt matched best, then the most seen).
 */
export function mergeSimilar<T extends PlainInstinct>(items: readonly T[], lead: (a: T, b: T) => number = byEvidence): T[][] {
  const shapes = new Map<string, number>();
  for (const i of items) {
    const shape = shapeOf(i);
    if (shape) shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  const groups = new Map<string, T[]>();
  for (const i of items) {
    const shape = shapeOf(i);
    const key = shape && (shapes.get(shape) ?? 0) > 1 ? `shape:${shape}` : `when:${i.trigger.trim().toLowerCase() || i.name}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  return withRecipes([...groups].map(([, group]) => [...group].sort(lead)));
}

/** How a project runs one command by hand (`go test -tags=integration ./cmd/app/integration_test`): a recipe miner's rule. */
const isRecipe = (i: PlainInstinct): boolean => /^pref:[^/]*\/recipe=/.test(i.name);

/** The words that name a project task (`mise run test:integration`: test, integration), by stem. */
function taskWords(i: PlainInstinct): string[] {
  const task = /^Use the project's task `([^`]+)`/.exec(i.action)?.[1];
  if (!task) return [];
  return (
    task
      .split(/\s+/)
      .slice(1)
      .join(' ')
      .match(/[a-z0-9]+/gi) ?? []
  )
    .filter((w) => w !== 'run')
    .map(stem);
}

/** How much of a task a recipe runs: the task's words when its trigger names them all, else 0. */
function fitOf(recipe: PlainInstinct): (task: PlainInstinct) => number {
  const about = stemSet(withoutExamples(recipe.trigger));
  return (task) => {
    const w = taskWords(task);
    return w.length > 0 && w.every((x) => about.has(x)) ? w.length : 0;
  };
}

/**
 * A recipe joins the line of the task that runs the same thing: "use `mise run test:integration`"
 * and "run `go test` on the integration tests as `go test -tags=integration …`" are one piece of
 * advice (the task, and how to call the toolchain directly for one test), not two lines that
 * seem to contradict. It joins the task that names most of its trigger's words.
 */
function withRecipes<T extends PlainInstinct>(groups: T[][]): T[][] {
  const joined = new Set<T[]>();
  for (const group of groups) {
    const recipe = group[0];
    if (group.length !== 1 || !recipe || !isRecipe(recipe)) continue;
    const fits = fitOf(recipe);
    const fit = (g: T[]): number => Math.max(0, ...g.map(fits));
    const target = groups.filter((g) => !joined.has(g) && g !== group && fit(g) > 0).sort((a, b) => fit(b) - fit(a))[0];
    if (!target) continue;
    target.push(recipe);
    joined.add(group);
  }
  return groups.filter((g) => !joined.has(g));
}

/** What sets apart each title of a group: the titles without the words they all start with. */
export function distinctParts(titles: readonly string[]): string[] {
  if (titles.length < 2) return [...titles];
  const words = titles.map((t) => t.split(/\s+/));
  let common = 0;
  while (words.every((w) => w[common] !== undefined && w[common] === words[0]?.[common] && common < w.length - 1)) common++;
  return words.map((w) => w.slice(common).join(' '));
}

/**
 * What the rest of a group adds to its first: the other code with what sets its trigger apart,
 * or the other titles; each recipe joined goes with the task that names most of its words.
 */
function alsoOf(group: readonly PlainInstinct[]): string {
  const [first, ...rest] = group as [PlainInstinct, ...PlainInstinct[]];
  const recipes = isRecipe(first) ? [] : rest.filter(isRecipe);
  const others = rest.filter((r) => !recipes.includes(r));
  const owners = new Map(recipes.map((r) => [r, ownerOf(r, [first, ...others])]));
  const mine = (m: PlainInstinct): PlainInstinct[] => recipes.filter((r) => owners.get(r) === m);
  const own = mine(first);
  return likewiseOf(first, others, mine) + (own.length ? ` To call the toolchain directly: ${howTo(own)}.` : '');
}

/** The task of a group a recipe runs by hand: the one whose words its trigger names most. */
function ownerOf(recipe: PlainInstinct, tasks: readonly PlainInstinct[]): PlainInstinct | undefined {
  const fit = fitOf(recipe);
  return [...tasks].sort((a, b) => fit(b) - fit(a))[0];
}

/** A recipe's command, with its hint: "`go test -tags=integration …` (add `-run TestName` or `-v` as needed)". */
const howTo = (recipes: readonly PlainInstinct[]): string =>
  recipes.map((r) => [codeOf(r.action)[0] ?? r.title, /\(add [^)]*\)/.exec(r.action)?.[0]].filter(Boolean).join(' ')).join('; ');

const LINKING = new Set(['the', 'a', 'an', 'to', 'of', 'in', 'on', 'for', 'with', 'and', 'or']);

/** The words of a trigger that the first's does not have nor its code says ("format code"; nothing for `test:ci`'s "the tests (ci)"). */
function setApart(trigger: string, from: string, code: string): string {
  const said = stemSet(`${from} ${code.replace(/[:_-]/g, ' ')}`);
  const words =
    withoutExamples(trigger)
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  const apart = words.filter((w) => !said.has(stem(w)));
  return apart.every((w) => LINKING.has(w)) ? '' : apart.join(' ');
}

function likewiseOf(first: PlainInstinct, rest: readonly PlainInstinct[], mine: (m: PlainInstinct) => PlainInstinct[]): string {
  if (rest.length === 0) return '';
  if (shapeOf(first) && rest.every((r) => shapeOf(r) === shapeOf(first))) {
    const known = new Set(codeOf(first.action));
    const likewise = rest.map((r) => {
      const code = codeOf(r.action)
        .filter((c) => !known.has(c))
        .join(' ');
      const notes = [setApart(r.trigger, first.trigger, code), mine(r).length ? `directly: ${howTo(mine(r))}` : ''].filter(Boolean);
      return notes.length ? `${code} (${oneLine(notes.join('; '), 200)})` : code;
    });
    return ` Likewise ${likewise.join(', ')}.`;
  }
  const titles = [first, ...rest].map((r) => r.title || r.name);
  return ` Also: ${leadOf(titles)}${distinctParts(titles).slice(1).join(', ')}.`;
}

/** The shared words that make the parts a sentence ("users ask to" before "create the branch"), past the project's label; '' when the parts stand alone. */
function leadOf(titles: readonly string[]): string {
  const [first, ...rest] = titles as [string, ...string[]];
  const words = first.split(/\s+/);
  const shared = words.slice(0, words.length - (distinctParts([first, ...rest])[0] as string).split(/\s+/).length);
  const lead = (shared[0]?.endsWith(':') ? shared.slice(1) : shared).join(' ');
  return / to$/.test(` ${lead}`) ? `${lead} ` : '';
}

/** The user's strong mark on a line: for all of it, or for how many of the rules it joins (a merged line must not lend one rule's mark to another). */
function confirmedMark(group: readonly { confirmed?: boolean }[]): string {
  const confirmed = group.filter((r) => r.confirmed).length;
  if (confirmed === 0) return '';
  return confirmed === group.length ? 'confirmed by the user' : `${confirmed} of ${group.length} confirmed by the user`;
}

/** Where a line came from, in a few words: how often it was seen, and whether it was imported or confirmed. */
function provenanceOf(group: readonly PlainInstinct[]): string {
  const seen = group.map((r) => r.evidence);
  // Counts that only came with an import (a file, another machine, an agent's import_patterns) are a claim, not sightings.
  const unseenHere = group.every((r) => r.imported && r.local === 0);
  // One count per rule of the line ("seen 6 and 3 times"); past three, a list reads as noise: the range says it.
  const counts =
    seen.length === 1
      ? `seen ${counted(seen[0] as number, 'time')}`
      : seen.length <= 3
        ? `seen ${seen.slice(0, -1).join(', ')} and ${seen.at(-1) as number} times`
        : `seen ${Math.min(...seen)} to ${Math.max(...seen)} times each`;
  const times = unseenHere ? `said to be ${counts}` : counts;
  // A group is as fresh as its most recent member: one seen this month says nothing old.
  const seenAt = group.map((r) => r.lastSeen ?? '').sort();
  const old = seenAt[0] ? `last seen ${monthOf(seenAt.at(-1) as string)}` : '';
  const marks = [
    group.some((r) => r.imported) ? (unseenHere ? 'imported, not seen here' : 'imported') : '',
    group.some((r) => r.reported) ? 'reported by an agent' : '',
    confirmedMark(group),
    old,
  ];
  return [times, ...marks.filter(Boolean)].join(', ');
}

/**
 * When a line of the same advice for other code applies: each member's trigger, said once
 * ("when you need to lint, format code or run the tests in cli"), so the line's other commands
 * are not filed under the first's occasion ("when you need to lint: … Likewise `mise run test`").
 * The first's trigger alone when the others add nothing or do not share its frame. Pure.
 */
export function sharedTrigger(group: readonly PlainInstinct[]): string {
  const first = group[0] as PlainInstinct;
  const own = withoutExamples(first.trigger).trim();
  const same = group.filter((r) => !isRecipe(r) && shapeOf(r) && shapeOf(r) === shapeOf(first));
  if (same.length < 2 || same[0] !== first) return own;
  // A qualifier ("run the tests (ci)") is running the tests: said once, by the command's own note.
  const words = same.map((r) =>
    withoutExamples(r.trigger)
      .replace(/\s*\([^)]*\)/g, '')
      .trim()
      .split(/\s+/),
  );
  const shortest = Math.min(...words.map((w) => w.length));
  let head = 0;
  while (head < shortest - 1 && words.every((w) => w[head] === words[0]?.[head])) head++;
  let tail = 0;
  while (tail < shortest - head - 1 && words.every((w) => w[w.length - 1 - tail] === words[0]?.[words[0].length - 1 - tail])) tail++;
  if (head === 0) return own;
  const middles = [...new Set(words.map((w) => w.slice(head, w.length - tail).join(' ')).filter(Boolean))];
  if (middles.length < 2 || middles.length > 4) return own;
  const list = `${middles.slice(0, -1).join(', ')} or ${middles.at(-1) as string}`;
  const [lead, end] = [(words[0] as string[]).slice(0, head), (words[0] as string[]).slice((words[0] as string[]).length - tail)];
  return [...lead, list, ...end].join(' ');
}

/** One group of instincts as one line: "When …: do … Also: …, … (seen 14 and 6 times)". */
export function plainLine(group: readonly PlainInstinct[], max = 600): string {
  const first = group[0] as PlainInstinct;
  // A trigger's "(e.g. …)" quotes one session's task: it says nothing of when the rule applies.
  const when = first.trigger ? `${capitalise(oneLine(sharedTrigger(group), 160))}: ` : '';
  const also = alsoOf(group);
  // Nothing said but the key: its body ("pytest+coverage"), never the prefix.
  const said = first.action || first.title || first.name.slice(first.name.indexOf(':') + 1);
  const action = oneLine(said, Math.max(80, max - when.length - also.length - 40));
  return `- ${when}${action}${also} (${provenanceOf(group)})`;
}
