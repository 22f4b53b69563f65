/** Everything learned: every instinct, with a strong / weak / wrong correction on each. */
import { useCallback, useEffect, useState } from 'react';
import { Head } from './Head.js';
import { type FeedbackResult, type Instinct, type Verdict, api } from './api.js';

const VERDICTS: readonly Verdict[] = ['strong', 'weak', 'wrong'];

function InstinctRow({ instinct, onVerdict }: { instinct: Instinct; onVerdict: (i: Instinct, v: Verdict) => void }) {
  return (
    <tr data-pattern={instinct.pattern}>
      <td>{instinct.trigger}</td>
      <td>{instinct.action}</td>
      <td className="num">{instinct.confidence.toFixed(2)}</td>
      <td className="num">{instinct.evidence}</td>
      <td>
        {VERDICTS.map((v) => (
          <button key={v} type="button" aria-label={`${v}: ${instinct.pattern}`} onClick={() => onVerdict(instinct, v)}>
            {v}
          </button>
        ))}
      </td>
    </tr>
  );
}

export function Learned({ version, say }: { version: number; say: (message: string) => void }) {
  const [instincts, setInstincts] = useState<Instinct[]>([]);

  const load = useCallback(async () => {
    setInstincts((await api<{ instincts: Instinct[] }>('/api/instincts?limit=500')).instincts);
  }, []);

  useEffect(() => {
    load().catch((err: Error) => say(err.message));
  }, [version, load, say]);

  const correct = async (instinct: Instinct, verdict: Verdict) => {
    try {
      const r = await api<FeedbackResult>('/api/instincts/feedback', { pattern: instinct.pattern, verdict });
      say(`Marked ${verdict}: confidence ${r.before.toFixed(2)} to ${r.after.toFixed(2)}.`);
      await load();
    } catch (err) {
      say((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="instincts-title">
      <h2 id="instincts-title">What it learned</h2>
      <table id="instincts">
        <Head columns={['When', 'Do', 'Confidence', 'Seen', 'Correct it']} />
        <tbody>
          {instincts.map((i) => (
            <InstinctRow key={i.pattern} instinct={i} onVerdict={(x, v) => void correct(x, v)} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
