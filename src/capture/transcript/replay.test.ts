import { describe, expect, it } from 'vitest';
import { TranscriptReplay } from './replay.js';

const message = (uuid: string, s: number, content: string): string =>
  JSON.stringify({
    type: 'user',
    uuid,
    sessionId: 'sess-1',
    cwd: '/work/app',
    timestamp: new Date(Date.UTC(2026, 0, 10, 9, 0, s)).toISOString(),
    message: { role: 'user', content },
  });
const summary = (text: string, leafUuid: string): string => JSON.stringify({ type: 'summary', summary: text, leafUuid });

function titleOf(lines: string[]): string | undefined {
  const replay = new TranscriptReplay('/t/sess-1.jsonl');
  for (const line of lines) Array.from(replay.feed(line));
  Array.from(replay.finish());
  return replay.stats.title;
}

describe('transcript title', () => {
  it('ignores a summary whose leaf is a message of another session', () => {
    const lines = [summary('Another session entirely', 'elsewhere'), message('u1', 1, 'retry the notarization'), message('u2', 2, 'ok')];
    expect(titleOf(lines)).toBeUndefined();
  });

  it('takes the summary whose leaf is latest in the file, wherever the summary line stands', () => {
    const lines = [
      summary('Another session entirely', 'elsewhere'),
      summary('Late leaf', 'u3'),
      message('u1', 1, 'first'),
      message('u2', 2, 'second'),
      message('u3', 3, 'third'),
      summary('Early leaf', 'u1'),
      summary('Middle leaf', 'u2'),
    ];
    expect(titleOf(lines)).toBe('Late leaf');
  });

  it('keeps where malformed lines are, counting blank lines too', () => {
    const replay = new TranscriptReplay('/t/sess-1.jsonl');
    for (const line of [message('u1', 1, 'first'), '', '{"cut', message('u2', 2, 'second'), '[1]']) Array.from(replay.feed(line));
    expect(replay.stats).toMatchObject({ malformed: 2, malformedAt: [3, 5] });
  });
});
