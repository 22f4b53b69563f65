/** The tier map: working memory (the last 48 hours), episodic, semantic and procedural facts, sized by how many each holds. */
import type { Tiers } from './api-neural.js';

const ZONES = [
  { key: 'recent', tier: 'T1', label: 'Working (48 h)', colour: '#0e7490' },
  { key: 'episodic', tier: 'T2', label: 'Episodic', colour: '#1d4ed8' },
  { key: 'semantic', tier: 'T3', label: 'Semantic', colour: '#6d28d9' },
  { key: 'procedural', tier: 'T3', label: 'Procedural', colour: '#6d28d9' },
] as const;

/** The seed's rule: sqrt(items) × 2 + 4, capped so a large store still fits. */
const size = (n: number) => Math.min(26, Math.sqrt(n) * 2 + 4);

export function NeuralTiers({ tiers, day }: { tiers: Tiers; day: string }) {
  const step = 150;
  const summary = ZONES.map((z) => `${z.label} ${tiers[z.key]}`).join(', ');
  return (
    <figure id="neural-tiers">
      <svg viewBox={`0 0 ${step * ZONES.length} 86`} role="img" aria-label={`Memory tiers: ${summary} facts.`}>
        {ZONES.slice(1).map((_, i) => (
          <line key={i} x1={step * i + step / 2} y1={34} x2={step * (i + 1) + step / 2} y2={34} stroke="#71717a" />
        ))}
        {ZONES.map((z, i) => (
          <g key={z.key}>
            <circle cx={step * i + step / 2} cy={34} r={size(tiers[z.key])} fill={z.colour} />
            <text x={step * i + step / 2} y={76} textAnchor="middle">
              {z.tier} {z.label}: {tiers[z.key]}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        {/* Not the Memory page's tiers (which count instincts), nor its entity count (every one stored). */}
        Facts by kind of memory. {tiers.entities} entities with a fact true on {day}, of {tiers.entities_stored} stored; {tiers.communities}{' '}
        communities.
      </figcaption>
    </figure>
  );
}
