/**
 * Writing a chunk of facts by memory type, within a character budget:
 * procedural facts as "When X → Y", semantic facts grouped by their subject, episodic
 * facts in chronological order. Each fact says where it came from: the graph, and its id.
 */
import type { MemoryType } from '../graph/memory-type.js';
import { RELATION_LABELS, type Relation } from '../graph/ontology.js';
import { oneLine } from './format.js';

interface FormattableFact {
  id: number;
  source: string;
  relation: Relation;
  target: string;
  description: string;
  memory_type: MemoryType;
  valid_at: string;
}

interface Formatted {
  lines: string[];
  ids: number[];
  chars: number;
}

const WHEN = /^(when|whenever|quand|lorsque|si|if)\b/i;

const provenance = (f: FormattableFact): string => `(graph #${f.id})`;
/** Stored text on one line, neutralised: a fact's own line break could pass for a heading. */
const flat = (text: string): string => oneLine(text, Number.POSITIVE_INFINITY);

export function proceduralLine(f: FormattableFact): string {
  const text = flat(f.description);
  if (WHEN.test(text) && /→|->/.test(text)) return `- ${text.replace(/\s*->\s*/, ' → ')} ${provenance(f)}`;
  return `- When working with ${flat(f.source)} → ${withoutSubject(f)} ${provenance(f)}`;
}

/** The description without its subject at the front ("shop depends on zod" -> "depends on zod"). */
function withoutSubject(f: FormattableFact): string {
  const text = flat(f.description);
  const front = text.slice(0, f.source.length + 2).toLowerCase();
  const subject = f.source.toLowerCase();
  if (front.startsWith(`${subject} `)) return text.slice(f.source.length + 1);
  // "cli: git gc failed with …" under "- cli:" would name it twice.
  if (front === `${subject}: `) return text.slice(f.source.length + 2);
  if (!text) return `${RELATION_LABELS[f.relation]} ${f.target}`;
  return text;
}

function episodicLine(f: FormattableFact): string {
  return `- ${f.valid_at.slice(0, 10)}: ${flat(f.description)} ${provenance(f)}`;
}

/** Adds lines in priority order while they fit; a semantic group grows fact by fact. */
export function formatFacts(facts: readonly FormattableFact[], budget: number): Formatted {
  const out: Formatted = { lines: [], ids: [], chars: 0 };
  const fits = (line: string, replacing = 0) => out.chars - replacing + line.length + 1 <= budget;
  for (const f of facts.filter((x) => x.memory_type === 'procedural')) {
    const line = proceduralLine(f);
    if (!fits(line)) continue;
    out.lines.push(line);
    out.ids.push(f.id);
    out.chars += line.length + 1;
  }
  const groups = new Map<string, number>();
  for (const f of facts.filter((x) => x.memory_type === 'semantic')) {
    const piece = `${withoutSubject(f)} ${provenance(f)}`;
    const at = groups.get(f.source);
    if (at === undefined) {
      const line = `- ${flat(f.source)}: ${piece}`;
      if (!fits(line)) continue;
      groups.set(f.source, out.lines.length);
      out.lines.push(line);
      out.chars += line.length + 1;
    } else {
      const old = out.lines[at] as string;
      const line = `${old}; ${piece}`;
      if (!fits(line, old.length)) continue;
      out.lines[at] = line;
      out.chars += line.length - old.length;
    }
    out.ids.push(f.id);
  }
  const episodes = facts.filter((x) => x.memory_type === 'episodic').sort((a, b) => a.valid_at.localeCompare(b.valid_at) || a.id - b.id);
  for (const f of episodes) {
    const line = episodicLine(f);
    if (!fits(line)) continue;
    out.lines.push(line);
    out.ids.push(f.id);
    out.chars += line.length + 1;
  }
  return out;
}

/** A fact in words: its description, else its subject, relation and object ("cli contains the file …"), never a relation's name. */
export const factStatement = (f: Pick<FormattableFact, 'description' | 'source' | 'relation' | 'target'>): string =>
  flat(f.description) || `${flat(f.source)} ${RELATION_LABELS[f.relation] ?? f.relation.replace(/_/g, ' ')} ${flat(f.target)}`;

/**
 * Facts beside a prompt, for the agent: each as its own sentence with the day it was said (a
 * user's remark says "The user said: ..."), no ids and no grouping by subject.
 */
export function plainFacts(facts: readonly FormattableFact[], budget: number): Formatted {
  const out: Formatted = { lines: [], ids: [], chars: 0 };
  for (const f of facts) {
    const line = `- ${factStatement(f)} (${f.valid_at.slice(0, 10)})`;
    if (out.chars + line.length + 1 > budget) continue;
    out.lines.push(line);
    out.ids.push(f.id);
    out.chars += line.length + 1;
  }
  return out;
}
