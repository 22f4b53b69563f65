/** The last day a range of days shows, picked within the stored history (imported sessions may be months old). */
export function RangeEnd({
  id,
  first,
  latest,
  to,
  onChange,
}: {
  id: string;
  first: string | null;
  latest: string | null;
  to: string;
  onChange: (day: string) => void;
}) {
  if (!first || !latest) return null;
  return (
    <label htmlFor={id}>
      {' '}
      up to{' '}
      <input
        id={id}
        type="date"
        value={to}
        min={first.slice(0, 10)}
        max={latest.slice(0, 10)}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </label>
  );
}
