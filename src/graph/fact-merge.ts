/**
 * What to do with an incoming fact given the current facts around it. Pure. In order:
 *
 *   1. contradiction  same two entities under an opposite relation (decided_for vs
 *                     decided_against, works_well_for vs fails_for, ...): supersede
 *   2. restatement    same source and relation, and the description restates a value the
 *                     older one gave about the same target (another version, date, time
 *                     or number of the same attribute); about another target only when
 *                     the relation holds one choice (prefers, decided_for, built_with) or
 *                     the newer text says it changed ("now", "instead", "switched to").
 *                     Other relations are many-valued: a project uses TypeScript *and*
 *                     zod, and uses react *and* d3 "for the graph page".
 *   3. duplicate      Jaccard > 0.85 (words of 2+ characters) between the two statements
 *                     (source, relation, target and description, so that two generic
 *                     descriptions of different entities are not merged): keep the old
 *                     one, reinforce it
 *   4. reconsolidate  same source, relation and target, the old fact is semantic or
 *                     procedural: enrich it in place (history kept)
 *   5. create
 *
 * Supersession follows valid time: information that arrives late about an earlier state
 * (its valid_at is before the current fact's) is stored as history, closed where the
 * current fact begins, instead of replacing it.
 */
import type { Fact } from './facts.js';
import { isMutable } from './memory-type.js';
import { OPPOSITE_RELATIONS, RELATION_LABELS, type Relation } from './ontology.js';
import { detectRestatement, saysChanged } from '../search/restatement.js';
import { JACCARD_DUPLICATE, textJaccard } from './similarity.js';
import { wordSet } from '../text/words.js';

/** What merging looks at in a fact. */
export type MergeFact = Pick<
  Fact,
  'id' | 'source_id' | 'target_id' | 'source' | 'target' | 'relation' | 'description' | 'memory_type' | 'valid_at'
>;

type Incoming = Omit<MergeFact, 'id'>;

export type MergePlan =
  | { action: 'create'; reason: string }
  | { action: 'duplicate'; of: number; reason: string }
  | { action: 'reconsolidate'; of: number; reason: string }
  | { action: 'supersede'; of: number[]; cause: 'contradicted' | 'superseded'; reason: string }
  | { action: 'historical'; before: { id: number; valid_at: string }; reason: string };

/** Relations that hold one choice per attribute: another target replaces the old one. */
const SINGLE_CHOICE_RELATIONS: ReadonlySet<Relation> = new Set(['prefers', 'decided_for', 'built_with']);

/** Restatement of `older` by `incoming`: the attribute must lie beyond subject and verb. */
/** A target whose name is most of the description (a preference recorded as the sentence itself). */
function isFreeTextTarget(f: Pick<MergeFact, 'target' | 'description'>): boolean {
  const t = wordSet(f.target);
  const d = wordSet(f.description);
  return t.size >= 3 && [...t].filter((w) => d.has(w)).length / Math.max(1, d.size) > 0.5;
}

function restates(older: MergeFact, incoming: Incoming): { restates: boolean; reason: string } {
  const sameTarget = older.target_id === incoming.target_id;
  // Removing such a target leaves only boilerplate: no attribute can be compared.
  if (!sameTarget && (isFreeTextTarget(older) || isFreeTextTarget(incoming)))
    return { restates: false, reason: 'free-text targets carry no comparable attribute' };
  const r = detectRestatement(older.description, incoming.description, {
    olderValues: sameTarget ? [] : [older.target],
    newerValues: sameTarget ? [] : [incoming.target],
    ignore: [older.source, RELATION_LABELS[older.relation], older.relation.replace(/_/g, ' ')],
  });
  // About the same target, different words are a rewording (reconsolidation), not a new value.
  if (r.restates && sameTarget && r.kind === 'word') return { restates: false, reason: 'same target reworded' };
  if (r.restates && !sameTarget && !SINGLE_CHOICE_RELATIONS.has(incoming.relation) && !saysChanged(incoming.description)) {
    return { restates: false, reason: `${incoming.relation} holds several values and nothing says this one replaced the other` };
  }
  return { restates: r.restates, reason: r.reason };
}

function replaceOrKeepHistory(targets: MergeFact[], incoming: Incoming, cause: 'contradicted' | 'superseded', why: string): MergePlan {
  const later = targets.filter((t) => t.valid_at > incoming.valid_at).sort((a, b) => a.valid_at.localeCompare(b.valid_at));
  const first = later[0];
  if (first)
    return {
      action: 'historical',
      before: { id: first.id, valid_at: first.valid_at },
      reason: `${why}; it describes an earlier state than fact ${first.id}`,
    };
  return { action: 'supersede', of: targets.map((t) => t.id), cause, reason: why };
}

/** What a fact says, entities included: the text duplicates are compared on. */
const statement = (f: Pick<MergeFact, 'source' | 'relation' | 'target' | 'description'>): string =>
  `${f.source} ${RELATION_LABELS[f.relation]} ${f.target} ${f.description}`;

export function planMerge(incoming: Incoming, candidates: readonly MergeFact[]): MergePlan {
  const opposite = OPPOSITE_RELATIONS[incoming.relation];
  const contradicted = candidates.filter(
    (c) => opposite !== undefined && c.relation === opposite && c.source_id === incoming.source_id && c.target_id === incoming.target_id,
  );
  if (contradicted.length > 0) {
    return replaceOrKeepHistory(
      contradicted,
      incoming,
      'contradicted',
      `${incoming.relation} contradicts ${opposite} between the same entities`,
    );
  }

  const sameSlot = candidates.filter((c) => c.source_id === incoming.source_id && c.relation === incoming.relation);
  const restated = sameSlot.map((c) => ({ c, r: restates(c, incoming) })).filter((x) => x.r.restates);
  if (restated.length > 0) {
    return replaceOrKeepHistory(
      restated.map((x) => x.c),
      incoming,
      'superseded',
      restated[0]?.r.reason ?? 'restated',
    );
  }

  let best: { id: number; score: number } | undefined;
  const said = statement(incoming);
  for (const c of candidates) {
    const score = textJaccard(statement(c), said);
    if (score > JACCARD_DUPLICATE && (!best || score > best.score)) best = { id: c.id, score };
  }
  if (best) return { action: 'duplicate', of: best.id, reason: `statement Jaccard ${best.score.toFixed(2)} > ${JACCARD_DUPLICATE}` };

  const same = sameSlot.find((c) => c.target_id === incoming.target_id && isMutable(c.memory_type));
  if (same && isMutable(incoming.memory_type))
    return { action: 'reconsolidate', of: same.id, reason: 'new evidence about the same relation' };

  return { action: 'create', reason: 'new fact' };
}
