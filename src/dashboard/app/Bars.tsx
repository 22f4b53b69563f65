/**
 * A bar chart as inline SVG (no chart library): one bar per label, stacked by series, with
 * an optional mark above some bars. Decorative for screen readers: each chart has a table
 * with the same numbers beside it.
 */

export interface Series {
  name: string;
  values: readonly number[];
  /** A CSS class giving the fill (app.css), so colours stay in one place. */
  tone: string;
}

const BAR = 14;
const GAP = 4;

export function Bars({
  labels,
  series,
  height = 80,
  marked = [],
  title,
}: {
  labels: readonly string[];
  series: readonly Series[];
  height?: number;
  /** Indexes of the bars to mark (failures). */
  marked?: readonly number[];
  title: string;
}) {
  const totals = labels.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const top = 8;
  // A baseline under every bar, so an empty day still shows as a day.
  const floor = height - 2;
  const scale = (floor - top) / max;
  return (
    // The viewBox lets a narrow screen scale the chart down (app.css: height follows width) instead of cutting it off.
    <svg
      className="bars"
      width={labels.length * (BAR + GAP)}
      height={height}
      viewBox={`0 0 ${labels.length * (BAR + GAP)} ${height}`}
      role="img"
      aria-label={title}
    >
      <title>{title}</title>
      {labels.map((label, i) => {
        let y = floor;
        return (
          <g key={label}>
            <rect className="base" x={i * (BAR + GAP)} y={floor} width={BAR} height={2} />
            {series.map((s) => {
              const h = (s.values[i] ?? 0) * scale;
              y -= h;
              return h > 0 ? (
                <rect key={s.name} className={s.tone} x={i * (BAR + GAP)} y={y} width={BAR} height={h}>
                  <title>{`${label}: ${s.name} ${s.values[i]}`}</title>
                </rect>
              ) : null;
            })}
            {marked.includes(i) && <circle className="mark" cx={i * (BAR + GAP) + BAR / 2} cy={Math.max(3, y - 5)} r={3} />}
          </g>
        );
      })}
    </svg>
  );
}
