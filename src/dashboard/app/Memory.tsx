/** Memory: the three tiers as bars, every quality metric against its healthy range, and what changed between two dates. */
import { useEffect, useState } from 'react';
import { LabelledBars } from './LabelledBars.js';
import { Head } from './Head.js';
import { MemoryDiff } from './MemoryDiff.js';
import { api } from './api.js';
import type { MemoryHealth, QualityMetric } from './api-health.js';

/** Healthy or not in words (and a sign), never by colour alone. */
function Verdict({ metric }: { metric: QualityMetric }) {
  if (metric.healthy === null)
    return <span className="verdict">{metric.metric === 'memory_types' ? 'not judged' : 'not measured yet'}</span>;
  return <span className={`verdict ${metric.healthy ? 'healthy' : 'unhealthy'}`}>{metric.healthy ? '✓ healthy' : '✗ unhealthy'}</span>;
}

export function Memory({ version }: { version: number }) {
  const [health, setHealth] = useState<MemoryHealth | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    api<MemoryHealth>('/api/memory/health')
      .then(setHealth)
      .catch((err: Error) => setError(err.message));
  }, [version]);

  if (error) return <p role="alert">{error}</p>;
  if (!health) return <p>Loading…</p>;
  return (
    <section aria-labelledby="memory-title">
      <h2 id="memory-title">Memory health</h2>
      <div id="tiers" className="tiers">
        {health.tiers.map((t) => (
          <figure key={t.tier} data-tier={t.tier}>
            <figcaption>
              {t.tier} {t.name}
            </figcaption>
            <LabelledBars title={`${t.tier} ${t.name}`} bars={t.items.map((i) => ({ label: i.label, value: i.count }))} />
          </figure>
        ))}
      </div>
      <h3 id="quality-title">Quality</h3>
      <table id="quality" aria-labelledby="quality-title">
        <Head columns={['Metric', 'Value', 'Healthy range', 'Verdict']} />
        <tbody>
          {health.quality.map((q) => (
            <tr key={q.metric} data-metric={q.metric}>
              <th scope="row">{q.label}</th>
              <td className="num">{q.value}</td>
              <td>{q.healthy_range}</td>
              <td>
                <Verdict metric={q} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <MemoryDiff version={version} today={health.now.slice(0, 10)} />
    </section>
  );
}
