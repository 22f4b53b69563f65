import { describe, expect, it } from 'vitest';
import { builtinRegistry } from './builtin.js';

describe('the built-in tools', () => {
  it("are seed 001's twelve, each with its confirmation flag and a trust level", () => {
    const flags = Object.fromEntries(
      builtinRegistry()
        .definitions()
        .map((d) => [d.name, [d.confirm, d.trust]]),
    );
    expect(flags).toEqual({
      echo: [false, 'trusted'],
      datetime_now: [false, 'trusted'],
      workspace_read: [false, 'workspace'],
      workspace_write: [true, 'workspace'],
      workspace_list: [false, 'workspace'],
      shell_exec: [true, 'sandboxed'],
      web_fetch: [true, 'external'],
      mqtt_publish: [true, 'external'],
      mqtt_subscribe: [false, 'external'],
      memory_search: [false, 'trusted'],
      memory_save: [false, 'trusted'],
      memory_daily_log: [false, 'trusted'],
    });
  });
});
