import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { builtinRegistry } from './builtin.js';
import type { ToolContext } from './registry.js';

const ctx: ToolContext = { workspace: '/nonexistent', home: '/nonexistent', session: 's', clock: fixedClock('2026-11-26T23:30:00Z') };
const registry = builtinRegistry();

describe('echo and datetime_now', () => {
  it('echo returns its text', async () => {
    expect(await registry.run('echo', { text: 'ping 1' }, ctx)).toEqual({ ok: true, tool: 'echo', output: { text: 'ping 1' } });
  });

  it('datetime_now gives UTC and the local time of a zone', async () => {
    expect(await registry.run('datetime_now', {}, ctx)).toMatchObject({
      output: { utc: '2026-11-26T23:30:00.000Z', local: '2026-11-26 23:30:00', weekday: 'Thursday', timezone: 'UTC', unix: 1795735800 },
    });
    expect(await registry.run('datetime_now', { timezone: 'Asia/Tokyo' }, ctx)).toMatchObject({
      output: { local: '2026-11-27 08:30:00', weekday: 'Friday' },
    });
  });

  it('datetime_now refuses an unknown zone with the fix', async () => {
    expect(await registry.run('datetime_now', { timezone: 'Mars/Olympus' }, ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('Mars/Olympus'),
      hint: expect.stringContaining('IANA'),
    });
  });
});
