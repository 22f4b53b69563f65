/** Session operations: what agents did, most recent first. */
import { z } from 'zod';
import { parseJsonObject } from '../store/json.js';
import { defineOperation } from './operation.js';
import { wholeNumber } from './schemas.js';

export const recentSessions = defineOperation({
  name: 'sessions.recent',
  summary: 'The most recently active sessions: project, when, how many tool calls, and their summary',
  input: z.object({ limit: wholeNumber(1, 1000).default(50) }),
  run: ({ store }, input) => ({
    sessions: store.sessions.recent(input.limit).map((s) => ({
      id: s.id,
      source: s.source,
      project_name: s.project_name,
      started_at: s.started_at,
      ended_at: s.ended_at,
      tool_calls: Object.values(parseJsonObject(s.tool_counts)).reduce<number>((n, v) => n + (typeof v === 'number' ? v : 0), 0),
      summary: s.summary,
    })),
  }),
});
