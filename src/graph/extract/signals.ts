/**
 * A small preference and decision detector for user prompts, English and French (after
 * the signal tracker; the learning layer has the fuller tracker): explicit
 * preferences ("always", "never", "I prefer", "toujours", "jamais", "je préfère"),
 * principles (SSOT, DRY, KISS, YAGNI, TDD, library-first), corrections ("no, ...",
 * "I told you", "arrête", "je t'ai dit") and decisions ("let's go with", "on part sur").
 * Only what the user wrote is read (pasted material and client text are not); at most 10
 * signals per session.
 */
import { authoredSentences } from '../../text/authored.js';

type SignalType = 'explicit' | 'principle' | 'correction' | 'decision';

export interface Signal {
  type: SignalType;
  /** 'against' for never / don't / avoid / jamais. */
  polarity: 'for' | 'against';
  /** The sentence, trimmed. */
  text: string;
  /** Lower-case, collapsed, neutral lead-ins removed: the key signals are deduplicated by. */
  normalized: string;
  /** The chosen thing of a decision ("go with Drizzle" -> "Drizzle"), when readable. */
  object?: string;
}

export const MAX_SIGNALS_PER_SESSION = 10;
/** Only the head of a long prompt is read. */
const SIGNAL_SCAN_CHARS = 1500;
/** A principle is named in a short sentence ("We follow SSOT here"), not in a long explanation. */
const MAX_PRINCIPLE_SENTENCE = 160;

const AGAINST = /\b(never|don['’]?t|do not|avoid|stop|no more)\b|(^|\s)(jamais|n['’]utilise pas|ne pas|évite|arr[êe]te|plus de)(\s|$)/i;

const PATTERNS: { type: SignalType; re: RegExp }[] = [
  {
    type: 'correction',
    // "No, use pnpm" / "no that's wrong", not a sentence about nothing ("No prompt context is shown").
    re: /^(?:no|nope|non)(?:\s*[,.!:;]|\s+(?:that|this|it|i|we|you|don['’]?t|do|use|not|wait|stop|please|c['’]est|je|pas)\b)|\b(i told you|i said|that['’]s wrong|not like that|wrong approach)\b|(je t['’]ai dit|c['’]est faux|pas comme [çc]a|arr[êe]te de|arr[êe]te d['’])/i,
  },
  {
    type: 'decision',
    // "go with" as words, not the end of a file name ("transcript.go with the wrapper").
    re: /\b(let['’]?s (go with|use|switch to|keep)|we['’]ll (go with|use)|we (decided|chose|agreed)|i (decided|chose))\b|(?<![\w./-])go with\b|(on part sur|on va utiliser|on garde|j['’]ai choisi|on a (décidé|choisi)|nous avons (décidé|choisi))/i,
  },
  { type: 'principle', re: /\b(ssot|single source of truth|dry|kiss|yagni|tdd|test[- ]driven|library[- ]first)\b/i },
  {
    type: 'explicit',
    // "always" / "never" lead an instruction ("Always use...", "Please never...", "We always..."): within the first words.
    // Not what was or is so ("The session was never committed"): a rule, not a report.
    re: /^(?:\S+\s+){0,3}?(?<!\b(?:was|were|is|are|has|have|had|been|be|it['’]s|is not|wasn['’]t|isn['’]t)\s+)(always|never|toujours|jamais)\b|\b(i (really )?prefer|prefer to|please use|please avoid|don['’]?t (ever )?(use|add|write|create|put|call|commit|push)|do not (use|add|write|create|put|call|commit|push))\b|(je préf[èe]re|on préf[èe]re|n['’]utilise (pas|jamais)|n['’]utilise plus|évite de|ne (mets|fais) jamais)/i,
  },
];

/** Thinking aloud about a case ("now wondering: if I branch off main, then don't commit"), not a rule. */
const WONDERING = /\b(?:wondering|i wonder|what if|suppose|imagine|let['’]s say)\b/i;

/** "no revert those changes": a "no" typed in lower case leads a correction whatever follows. */
const TYPED_NO = /^(?:no|nope|non)\s+\S/;

/**
 * A correction that points at what is on screen ("no revert those changes", "no, ignore this
 * part", "no don't set it") steers the moment: out of it, nothing says what it was about, so it
 * is no standing preference. One that says it holds beyond it ("we removed them on purpose",
 * "never", "from now on") stays.
 */
const POINTS_AT_THE_MOMENT = /^(?:\S+\s+){0,7}?(?:this|that|those|these|it|here|ça|cette|ces|ici)\b/i;
const HOLDS_BEYOND = /\b(?:always|never|on purpose|by design|from now on|in general|every time|toujours|jamais|exprès)\b/i;
const steersTheMoment = (sentence: string): boolean =>
  POINTS_AT_THE_MOMENT.test(sentence.replace(CORRECTION_LEAD_WORDS, '')) && !HOLDS_BEYOND.test(sentence);

/** A sentence that opens as a question ("why didn't you …", "could we …"). */
const QUESTION = /^(why|how|what|when|where|which|who|could|can|should|would|is|are|do|does|did|pourquoi|comment|est-ce)\b/i;

const LEAD_INS = /^(i think (that )?|i believe |please |so |ok(ay)?,? |well,? |je pense que |il faut |merci de |stp |svp |alors )+/i;
/** "No, use pnpm": the "no" says it corrects (the signal's type), not what to do. */
const CORRECTION_LEAD = /^(no|nope|non)\b[\s,.!:]+/i;
/** The lead of a correction, with what follows "no" to make it one ("no wait,", "no, please"). */
const CORRECTION_LEAD_WORDS = /^(?:no|nope|non)\b[\s,.!:]*(?:wait\b[\s,.!:]*|please\b[\s,.!:]*)?/i;

export function normalizeSignal(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?;:,]+$/g, '')
    .trim()
    .replace(CORRECTION_LEAD, '')
    .replace(LEAD_INS, '')
    .trim();
}

/** The user's own sentences, from the head of the prompt. */
const proseSentences = (text: string): string[] => authoredSentences(text.slice(0, SIGNAL_SCAN_CHARS), { min: 8 });

function decisionObject(sentence: string): string | undefined {
  const m =
    /(?:go with|use|switch to|keep|decided (?:on|to use)|chose|on part sur|on va utiliser|on garde|choisi)\s+(?:the |le |la |les |l['’])?([`"']?[\p{L}\p{N}@/._-]+)(?:[ -]([\p{L}\p{N}._-]+))?/iu.exec(
      sentence,
    );
  // A second word belongs to the name only when capitalised or a number ("Vite 6", "Next JS").
  const second = m?.[2] && /^[\p{Lu}\p{N}]/u.test(m[2]) ? ` ${m[2]}` : '';
  const object = m?.[1] ? `${m[1]}${second}`.replace(/[`"'.]+$|^[`"']/g, '') : undefined;
  return object && object.length >= 2 ? object : undefined;
}

/** Signals in one text, in order of appearance, deduplicated. */
export function detectSignals(text: string, max = MAX_SIGNALS_PER_SESSION): Signal[] {
  const out: Signal[] = [];
  const seen = new Set<string>();
  for (const sentence of proseSentences(text)) {
    // A question asks; it does not state a preference (many are typed without their question mark).
    if (/\?\s*$/.test(sentence) || QUESTION.test(sentence) || WONDERING.test(sentence)) continue;
    const hit = PATTERNS.find(
      (p) =>
        (p.re.test(sentence) || (p.type === 'correction' && TYPED_NO.test(sentence))) &&
        (p.type !== 'principle' || sentence.length <= MAX_PRINCIPLE_SENTENCE),
    );
    if (!hit || (hit.type === 'correction' && steersTheMoment(sentence))) continue;
    const normalized = normalizeSignal(sentence);
    if (!normalized || seen.has(normalized)) continue;
    seen.add(normalized);
    const object = hit.type === 'decision' ? decisionObject(sentence) : undefined;
    out.push({
      type: hit.type,
      polarity: AGAINST.test(sentence) ? 'against' : 'for',
      text: sentence,
      normalized,
      ...(object ? { object } : {}),
    });
    if (out.length >= max) break;
  }
  return out;
}

/** Signals across a session's prompts: deduplicated, capped at 10. */
export function sessionSignals(prompts: readonly string[]): Signal[] {
  const out: Signal[] = [];
  const seen = new Set<string>();
  for (const p of prompts) {
    for (const s of detectSignals(p)) {
      if (seen.has(s.normalized)) continue;
      seen.add(s.normalized);
      out.push(s);
      if (out.length >= MAX_SIGNALS_PER_SESSION) return out;
    }
  }
  return out;
}
