/**
 * Requests users make again and again ("can you review the changes in this branch?", "could
 * we add tests for that?"), read from what they wrote (never from what they pasted). A
 * request is a sentence that opens with a request lead-in or an imperative verb; it is keyed
 * by its verb and the first word of its object, so the same ask in other words adds up
 * across sessions. Seen in 3 sessions, it is an instinct: offer it before being asked.
 * Pure functions, no I/O.
 */
import { slugify, truncate } from '../../core/text.js';
import { stem } from '../../text/stem.js';
import { COURTESY, ENGLISH, PROMPT_FILLER, VAGUE, stopSet } from '../../text/stopwords.js';
import { authoredSentences } from '../../text/authored.js';
import type { Obs } from '../observation.js';
import { type Candidate, quotedIn, seenIn } from './candidate.js';

/** What opens a request before its verb: courtesy, "can you", "let's", "we need to". */
const LEAD =
  /^(?:(?:ok(?:ay)?|so|and|also|then|now|great|perfect|thanks|yes|yeah|hmm+|cool|nice|first)[,!.]?\s+)*(?:(?:can|could|would|will) (?:you|we)(?: please| now| also| quickly| then)?|let'?s|let us|please|we (?:need|should|want) to|i(?:'d| would) like (?:you )?to)?\s*([a-z]+)\b(.*)$/i;
/** Verbs of the requests worth learning: work on the code or its review, not conversation. */
const VERBS = new Set(
  'review evaluate assess check update add write document fix remove delete rename merge rebase explain compare create refactor move verify validate investigate address respond reply improve simplify split extract'.split(
    ' ',
  ),
);
/** "Look at the changes" is a review. */
const SYNONYMS: Readonly<Record<string, string>> = { look: 'review' };
const NOT_OBJECT = stopSet(ENGLISH, COURTESY, PROMPT_FILLER, VAGUE);

const IDENTIFIER = /_|[a-z][A-Z]/;
/** Kinds of code a name comes before: "the greet function", "a Button component". */
const NAMED_KINDS = new Set(
  'function functions method methods class classes field fields endpoint endpoints route routes command commands component components flag option variable type interface module hook handler'.split(
    ' ',
  ),
);

export interface Request {
  verb: string;
  /** Stem of the first content word after the verb: the request's object. */
  object: string;
  /** The object as written, for the instinct's text. */
  objectWord: string;
}

/** The request a sentence makes, or undefined when it is not one. */
export function requestOf(sentence: string): Request | undefined {
  const m = LEAD.exec(sentence.trim());
  if (!m) return undefined;
  const said = (m[1] as string).toLowerCase();
  const verb = SYNONYMS[said] ?? said;
  if (!VERBS.has(verb)) return undefined;
  const words = (m[2] as string)
    .split(/\s+/)
    .map((token) => ({ token: token.replace(/^\W+|\W+$/g, ''), word: token.toLowerCase().match(/[a-z][a-z'-]*/)?.[0] ?? '' }));
  const at = words.findIndex(({ word }) => word.length > 2 && !NOT_OBJECT.has(word) && !word.includes("'"));
  const object = words[at];
  // An identifier ("add a parse_date function", "fix handleClick") names one thing, not a kind of request that recurs;
  // so does a word before the kind of thing it names ("add a greet function", "fix the login endpoint"), the kind
  // itself when its name is no word ("add a f13 function"), and a word placed in a file ("refactor add in src/math.js").
  const inFile = words[at + 1]?.word === 'in' && /[/\\]|\.\w+$/.test(words[at + 2]?.token ?? '');
  if (!object || IDENTIFIER.test(object.token) || NAMED_KINDS.has(object.word) || NAMED_KINDS.has(words[at + 1]?.word ?? '') || inFile)
    return undefined;
  return { verb, object: stem(object.word), objectWord: object.word };
}

/** What a request instinct says before the users' words. */
const offerOf = (r: Pick<Request, 'verb' | 'objectWord'>): string =>
  `Offer to ${r.verb} the ${r.objectWord} before being asked: users here ask for it again and again`;

/** The action: what it says, then the users' words. */
const actionFor = (says: string, quotes: readonly string[]): string => `${says} (${quotes.map((q) => `"${q}"`).join('; ')}).`;

/** The candidate a request sentence makes, where and when it was asked. */
export function requestCandidate(
  at: Pick<Candidate, 'project' | 'projectName' | 'sessionId' | 'ts'>,
  sentence: string,
  r: Request,
): Candidate {
  const where = at.projectName || 'this project';
  const quote = truncate(sentence, 120);
  return {
    ...at,
    key: `pref:${slugify(where)}/request=${r.verb}-${r.object}`,
    category: 'preference',
    domain: 'general',
    title: `${where}: users ask to ${r.verb} the ${r.objectWord}`,
    trigger: `when a change in ${where} is ready for the user`,
    action: actionFor(offerOf(r), [quote]),
    explain: `The user asked: "${quote}"`,
    evidence: [`asked: "${quote}"`],
    subjects: [`${r.verb} ${r.objectWord}`],
    miner: 'request',
    notable: false,
    tags: ['request'],
    facts: { says: offerOf(r) },
  };
}

/**
 * Whether the turn a prompt opened ended in a failure: its last tool call failed. A request
 * that failed is asked again because it failed ("add httpx" while `uv` is missing), which is a
 * retry, not a request users make again and again. `at` is the prompt's index. Pure.
 */
export function turnFailed(observations: readonly Obs[], at: number): boolean {
  let last: Obs | undefined;
  for (let i = at + 1; i < observations.length && observations[i]?.event !== 'prompt'; i++)
    if (observations[i]?.event === 'tool') last = observations[i];
  return last?.outcome === 'error';
}

/** Each sentence of what the user wrote in a prompt that makes a request, with the request. Pure. */
function requestSentences(prompt: string): { sentence: string; request: Request }[] {
  return authoredSentences(prompt, { lists: false, min: 8, max: 200 }).flatMap((sentence) => {
    const request = requestOf(sentence);
    return request ? [{ sentence, request }] : [];
  });
}

/** The requests a prompt makes, as the request keys' tail (`review-chang`), read as the miner reads them. Pure. */
export const requestsIn = (prompt: string): Set<string> =>
  new Set(requestSentences(prompt).map(({ request: r }) => slugify(`${r.verb}-${r.object}`)));

/** One candidate per request the session's user made (the first sentence that made it), unless its turn failed. */
export function mineRequests(observations: readonly Obs[]): Candidate[] {
  const out = new Map<string, Candidate>();
  observations.forEach((o, at) => {
    if (o.event !== 'prompt' || turnFailed(observations, at)) return;
    for (const { sentence, request } of requestSentences(o.input)) {
      const c = requestCandidate(seenIn(o), sentence, request);
      if (!out.has(c.key)) out.set(c.key, c);
    }
  });
  return [...out.values()];
}

/** The sentence a request sighting quotes (its evidence reads `asked: "..."`). */
export const askedIn = (evidence: string): string | undefined => /^asked: "(.*)"$/s.exec(evidence)?.[1];

const ASSESS =
  'Check each item of the review feedback against the code and say which are valid and why, and change nothing before the user picks what to fix: users here ask for that';

/** Review feedback handed to the agent: a review bot's findings, PR comments, a colleague's notes. */
const FEEDBACK = /\b(?:severity|copilot|bugbot|review\.md|review comments?|pr comments?|comments? on the pr|feedback)\b/i;
/** The user asking for a judgement before any change. */
const JUDGE =
  /\b(?:valid|validity|eval|evaluate|assess|what (?:do )?you think|your thoughts|before doing|makes sense|worth (?:it|addressing|fixing))\b/i;

/** A review bot's finding as pasted: its severity line ("Medium Severity", "Severity: High"). */
const BOT_FINDING = /\b(?:low|medium|high|critical) severity\b|\bseverity:\s*(?:low|medium|high|critical)\b/i;

/**
 * Whether a prompt hands over review feedback to weigh: a review bot's finding pasted as it
 * came (its severity line), or feedback the user asks a judgement of (assessmentAsked). Pure.
 */
export const handsFeedback = (prompt: string): boolean => BOT_FINDING.test(prompt) || assessmentAsked(prompt) !== undefined;

/** The key of the rule mineFeedbackAssessment learns. */
export const ASSESS_FEEDBACK_KEY = 'pref:request=assess-feedback';

/** The user's own sentence asking for a judgement of feedback the prompt hands over, if it asks for one. Pure. */
export function assessmentAsked(prompt: string): string | undefined {
  if (!FEEDBACK.test(prompt)) return undefined;
  return authoredSentences(prompt, { lists: false, min: 8, max: 300 }).find((s) => JUDGE.test(s));
}

/**
 * A request every team with review bots makes in its own words: "evaluate this feedback from
 * copilot", "check the PR comments and if there's anything valid in there". The feedback may be
 * pasted; the ask for a judgement must be the user's own words. It is how the person works, so
 * it is global: sessions in any of their projects add up.
 */
export function mineFeedbackAssessment(observations: readonly Obs[]): Candidate[] {
  for (const o of observations) {
    const asked = o.event === 'prompt' ? assessmentAsked(o.input) : undefined;
    if (!asked) continue;
    const quote = truncate(asked, 120);
    return [
      {
        ...seenIn(o),
        project: '',
        key: ASSESS_FEEDBACK_KEY,
        category: 'preference',
        domain: 'general',
        // Not "review": "/review" asks for a review, not a judgement of someone else's.
        title: 'Users ask whether feedback on their code is valid before any fix',
        trigger:
          "when the user hands you feedback on the code (a bot's findings such as Copilot's or Bugbot's, PR comments, a colleague's notes)",
        action: actionFor(ASSESS, [quote]),
        explain: `The user asked: "${quote}"`,
        evidence: [`asked: "${quote}"`],
        subjects: ['review feedback'],
        miner: 'request',
        notable: false,
        tags: ['request', 'review'],
        facts: { says: ASSESS },
      },
    ];
  }
  return [];
}

/** The instinct's action from every session that backs it, in the users' words. */
export function withRequests(c: Candidate, examples: readonly string[]): Candidate {
  const says = c.facts?.says;
  if (c.miner !== 'request' || typeof says !== 'string') return c;
  return { ...c, action: actionFor(says, quotedIn(examples)) };
}
