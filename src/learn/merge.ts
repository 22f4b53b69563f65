/** Merging instincts that arrive from outside (files, tarballs): raise, never lower. */
import type { Category, Domain } from '../core/domain.js';
import { DEFAULT_DOMAIN_BY_CATEGORY, DOMAINS, parseKey } from '../core/domain.js';
import { round } from '../core/text.js';
import { CONFIDENCE_CEILING, CONFIDENCE_FLOOR, decayPeriods } from './confidence.js';
import { type InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { currentConfidence } from './records.js';

export interface IncomingInstinct {
  key: string;
  category?: Category;
  trigger?: string;
  action?: string;
  title?: string;
  domain?: string;
  project?: string;
  source?: string;
  explain?: string;
  metadata?: Record<string, unknown>;
  evidence: number;
  /** The 0-1 confidence score the source gives, if any. */
  confidence?: number;
  first_seen?: string;
  last_seen?: string;
}

type MergeOutcome = 'created' | 'raised' | 'unchanged';

const clampScore = (s: number): number => round(Math.min(CONFIDENCE_CEILING, Math.max(CONFIDENCE_FLOOR, s)), 3);
const validDomain = (d: string | undefined, category: Category): Domain =>
  d && (DOMAINS as readonly string[]).includes(d) ? (d as Domain) : DEFAULT_DOMAIN_BY_CATEGORY[category];

/** Must run inside a write transaction. */
export function mergeInstinct(store: Store, incoming: IncomingInstinct, via: string): MergeOutcome {
  const now = store.clock.now();
  const at = now.toISOString();
  const parsed = parseKey(incoming.key);
  const key = store.instincts.resolveAlias(parsed.key);
  const category = incoming.category ?? parsed.category;
  const evidence = Math.max(1, Math.floor(incoming.evidence));
  const firstSeen = incoming.first_seen ?? at;
  const lastSeen = incoming.last_seen ?? at;
  const existing = store.instincts.get(key);
  const body = key.slice(key.indexOf(':') + 1);
  if (!existing) {
    const row = store.instincts.insert({
      key,
      category,
      trigger: incoming.trigger ?? body,
      action: incoming.action ?? incoming.explain ?? body,
      title: incoming.title ?? incoming.trigger ?? body,
      domain: validDomain(incoming.domain, category),
      project: incoming.project ?? '',
      source: incoming.source ?? via,
      explain: incoming.explain ?? '',
      metadata: JSON.stringify(incoming.metadata ?? {}),
      evidence,
      confidence: clampScore(incoming.confidence ?? 0.5),
      // A stated score is as of now (an export and the readable view write the decayed one):
      // the periods since its last sighting are counted in, not taken off it a second time.
      folded_periods: decayPeriods(lastSeen, now),
      first_seen: firstSeen,
      last_seen: lastSeen,
    });
    store.instincts.addEvent({
      instinct_id: row.id,
      ts: at,
      kind: 'import',
      delta_evidence: evidence,
      delta_confidence: row.confidence,
      source: via,
      project: row.project,
      detail: 'created by import',
    });
    return 'created';
  }
  const current = currentConfidence(existing, now);
  // Only a sighting the record states is a later one: a record without a date (an instinct file
  // with no last_seen) merged again must change nothing.
  const stated = incoming.last_seen;
  const fields: Partial<InstinctRow> = {};
  if (evidence > existing.evidence) fields.evidence = evidence;
  if (incoming.confidence !== undefined && clampScore(incoming.confidence) > current) {
    fields.confidence = clampScore(incoming.confidence);
    fields.last_seen = stated && stated > existing.last_seen ? stated : existing.last_seen;
    fields.folded_periods = decayPeriods(fields.last_seen, now);
  } else if (stated && stated > existing.last_seen) {
    // A later sighting elsewhere: keep the current score, restart its decay clock from now.
    fields.confidence = current;
    fields.last_seen = stated;
    fields.folded_periods = decayPeriods(stated, now);
  }
  if (firstSeen < existing.first_seen) fields.first_seen = firstSeen;
  // Metadata the store lacks is added; what it holds stays, in its order (a re-import changes nothing).
  const held = parseJsonObject(existing.metadata);
  const added = Object.entries(incoming.metadata ?? {}).filter(([k]) => !(k in held));
  if (added.length) fields.metadata = JSON.stringify({ ...held, ...Object.fromEntries(added) });
  if (!existing.explain && incoming.explain) fields.explain = incoming.explain;
  if (Object.keys(fields).length === 0) return 'unchanged';
  store.instincts.update(existing.id, fields);
  store.instincts.addEvent({
    instinct_id: existing.id,
    ts: at,
    kind: 'raise',
    delta_evidence: (fields.evidence ?? existing.evidence) - existing.evidence,
    delta_confidence: round((fields.confidence ?? current) - current, 3),
    source: via,
    project: incoming.project ?? '',
    detail: 'merged by import',
  });
  return 'raised';
}
