import { describe, expect, it } from 'vitest';
import { sandboxWorks } from '../agent/sandbox.js';
import { sandboxVerdict } from './doctor.js';

describe('the sandbox check', () => {
  it('says how to install bubblewrap when it is missing: a failure once the agent is set up, a warning before', () => {
    const probe = sandboxWorks('/nonexistent/bwrap');
    expect(probe.ok).toBe(false);
    expect(sandboxVerdict(probe, true)).toEqual({
      name: 'sandbox',
      status: 'fail',
      detail: 'bubblewrap (/nonexistent/bwrap) is not installed, so shell_exec cannot run anything',
      fix: 'Install bubblewrap: apt-get install bubblewrap.',
    });
    expect(sandboxVerdict(probe, false)).toMatchObject({ status: 'warn', detail: expect.stringContaining('not set up yet') });
    expect(sandboxVerdict({ ok: true, detail: 'fine' }, true)).toEqual({ name: 'sandbox', status: 'ok', detail: 'fine' });
  });
});
