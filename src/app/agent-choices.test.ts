/** The agent's choice fields name their values when a surface sends another. */
import { describe, expect, it } from 'vitest';
import { agentConfirmInput } from './agent-brain.js';
import { scheduleAdd } from './agent-schedule.js';

const message = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('agent choice fields', () => {
  it('name the allowed answers and missed-run policies', () => {
    expect(message(agentConfirmInput.safeParse({ id: 'c1', answer: 'maybe' }))).toBe('must be one of yes, no, unattended');
    expect(message(scheduleAdd.input.safeParse({ name: 'daily', cron: '0 9 * * *', heartbeat: true, missed: 'later' }))).toBe(
      'must be one of run-once, skip',
    );
  });
});
