/** Model token usage: every call's tokens, summed by the per-day budget. */
import { type Db, cachedStatement } from './db.js';

interface UsageRecord {
  ts: string;
  provider: string;
  model: string;
  purpose: string;
  input_tokens: number;
  output_tokens: number;
  ok: boolean;
}

export interface UsageRepository {
  record(usage: UsageRecord): void;
  /** Input plus output tokens of every call since `since`. */
  tokensSince(since: string): number;
}

export function createUsageRepository(db: Db): UsageRepository {
  return {
    record(u) {
      cachedStatement(
        db,
        'INSERT INTO llm_usage (ts, provider, model, purpose, input_tokens, output_tokens, ok) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(u.ts, u.provider, u.model, u.purpose, u.input_tokens, u.output_tokens, u.ok ? 1 : 0);
    },
    tokensSince: (since) =>
      (
        cachedStatement(db, 'SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS n FROM llm_usage WHERE ts >= ?').get(since) as {
          n: number;
        }
      ).n,
  };
}
