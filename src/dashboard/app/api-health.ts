/** What the Memory, Security and Telemetry routes answer (src/app/health.ts and telemetry.ts). */

export interface Tier {
  tier: 'T1' | 'T2' | 'T3';
  name: string;
  items: { label: string; count: number }[];
}

export interface QualityMetric {
  metric: string;
  label: string;
  value: string;
  healthy_range: string;
  healthy: boolean | null;
}

export interface MemoryHealth {
  now: string;
  tiers: Tier[];
  quality: QualityMetric[];
}

export interface InstinctMove {
  pattern: string;
  confidence_before: number;
  confidence_after: number;
  evidence_added: number;
  kinds: string[];
  /** When it applies and what it says, in plain words ('' once forgotten). */
  trigger: string;
  action: string;
  /** Why learning took it back (taken_back only). */
  reason?: string;
}

export interface FactLine {
  id: number;
  statement: string;
  description: string;
  created_at: string;
  expired_at: string | null;
  expired_reason: string | null;
}

export interface MemoryDiff {
  from: string;
  to: string;
  instincts: {
    created: InstinctMove[];
    changed: InstinctMove[];
    forgotten: InstinctMove[];
    taken_back: InstinctMove[];
    faded: InstinctMove[];
    /** Each key merged away, the key it joined, when and by whom. */
    merged: { pattern: string; into: string; at: string; source: string }[];
  };
  facts: { added: FactLine[]; expired: FactLine[]; limit: number };
}

export interface HookCall {
  ts: string;
  event: string;
  agent: string;
  ms: number;
  outcome: 'ok' | 'failed' | 'timeout';
  slow: boolean;
}

export interface EventSummary {
  event: string;
  calls: number;
  ok: number;
  failed: number;
  timeout: number;
  slow: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface Telemetry {
  calls: number;
  skipped_lines: number;
  since: string | null;
  budget_ms: number;
  events: EventSummary[];
  problems: HookCall[];
  log: { ts: string; message: string }[];
}

export interface SecurityReport {
  redactions: { total: number; kinds: { kind: string; total: number; places: Record<'observations' | 'prompts' | 'documents', number> }[] };
  hooks: { budget_ms: number; failed: number; timeouts: number; slow: number; problems: HookCall[] };
}

/** An ISO instant as `YYYY-MM-DD HH:MM` (UTC), for tables. */
export const when = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
