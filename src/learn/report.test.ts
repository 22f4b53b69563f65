import { describe, expect, it } from 'vitest';
import { TAKEN_BACK } from './apply.js';
import { emptyReport, observerLogLine } from './report.js';

describe('the learning run as logged', () => {
  it('names the instincts it let go, which its counts alone left unsaid', () => {
    const report = emptyReport('2026-03-01T10:00:00.000Z');
    expect(observerLogLine(report)).not.toMatch(/taken back/);
    report.held.push(
      {
        pattern: 'combo:cli:a.go+b.go',
        reason: `${TAKEN_BACK}now edited together in 3 of 7 sessions touching either file (needs 50%) to stay`,
      },
      { pattern: 'pref:x', reason: 'below the quality bar' },
    );
    expect(observerLogLine(report)).toMatch(/, 0 decayed, 1 taken back \(combo:cli:a\.go\+b\.go\)$/);
  });
});
