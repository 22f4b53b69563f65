/** Labelled horizontal bars (one per name: a tier, a hook) in inline SVG (no chart library; sizes are attributes, so the CSP's style-src holds). */

export interface Bar {
  label: string;
  value: number;
}

const ROW = 26;
const LABEL = 190;
const SPAN = 230;

export function LabelledBars({ title, bars, unit = '' }: { title: string; bars: readonly Bar[]; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const described = bars.map((b) => `${b.label} ${b.value}${unit}`).join(', ');
  return (
    <svg
      className="hbars"
      role="img"
      aria-label={`${title}: ${described}`}
      width={LABEL + SPAN + 90}
      height={bars.length * ROW}
      viewBox={`0 0 ${LABEL + SPAN + 90} ${bars.length * ROW}`}
    >
      {bars.map((b, i) => {
        const width = b.value > 0 ? Math.max(2, (b.value / max) * SPAN) : 0;
        return (
          <g key={b.label} transform={`translate(0 ${i * ROW})`}>
            <text x={0} y={17}>
              {b.label}
            </text>
            <rect x={LABEL} y={5} width={width} height={16} />
            <text x={LABEL + width + 6} y={17}>
              {b.value}
              {unit}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
