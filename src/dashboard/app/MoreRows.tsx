/** What a list left out, said under it: never a list cut short in silence. */
export function MoreRows(props: { shown: number; more: boolean; all: string; upTo?: number; onAll?: () => void }) {
  const { shown, more, all, upTo, onAll } = props;
  if (!more) return null;
  return (
    <p className="more" role="status">
      The first {shown} are shown; there are more.{' '}
      {onAll && upTo ? (
        <button type="button" onClick={onAll}>
          Show up to {upTo.toLocaleString('en-GB')}
        </button>
      ) : null}{' '}
      Every one: <code>{all}</code>
    </p>
  );
}

/** Asks for one row more than it shows, to know whether the list goes on. */
export const pageOf = <T,>(rows: readonly T[], limit: number): { rows: T[]; more: boolean } => ({
  rows: rows.slice(0, limit),
  more: rows.length > limit,
});
