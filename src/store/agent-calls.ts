/** The personal agent's model calls: one row per call, summed by the daily budget. */
import { type Db, cachedStatement } from './db.js';

export interface AgentCall {
  ts: string;
  session: string;
  provider: string;
  model: string;
  route: 'local' | 'remote';
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface AgentCallTotals {
  provider: string;
  model: string;
  route: 'local' | 'remote';
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}

export interface AgentCallRepository {
  record(call: AgentCall): void;
  /** The cost in USD of every call since `since` (ISO). */
  costSince(since: string): number;
  /** Calls, tokens and cost since `since`, per provider and model. */
  totalsSince(since: string): AgentCallTotals[];
}

export function createAgentCallRepository(db: Db): AgentCallRepository {
  return {
    record(c) {
      cachedStatement(
        db,
        'INSERT INTO agent_calls (ts, session, provider, model, route, input_tokens, output_tokens, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(c.ts, c.session, c.provider, c.model, c.route, c.input_tokens, c.output_tokens, c.cost_usd);
    },
    costSince: (since) =>
      (cachedStatement(db, 'SELECT COALESCE(SUM(cost_usd), 0) AS c FROM agent_calls WHERE ts >= ?').get(since) as { c: number }).c,
    totalsSince: (since) =>
      cachedStatement(
        db,
        `SELECT provider, model, route, COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,
           SUM(output_tokens) AS output_tokens, SUM(cost_usd) AS cost_usd
         FROM agent_calls WHERE ts >= ? GROUP BY provider, model, route ORDER BY cost_usd DESC, calls DESC`,
      ).all(since) as AgentCallTotals[],
  };
}
