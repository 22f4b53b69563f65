/** The two buttons a correction ends with (do it, or Cancel), and a confirmation built on them. */
import { type ReactNode, useEffect, useRef } from 'react';

/** `yes` submits the form it sits in, unless `onYes` is given (then it is a plain button). */
export function Choice({ yes, onYes, onCancel }: { yes: string; onYes?: () => void; onCancel: () => void }) {
  return (
    <div>
      {onYes ? (
        <button type="button" onClick={onYes}>
          {yes}
        </button>
      ) : (
        <button type="submit">{yes}</button>
      )}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * A question that nothing is changed before the user answers `yes`. The keyboard lands on it
 * (on Cancel, the safe answer), and Escape cancels.
 */
export function Confirm(props: { label: string; children: ReactNode; yes: string; onYes: () => void; onCancel: () => void }) {
  const group = useRef<HTMLDivElement>(null);
  useEffect(() => group.current?.querySelector<HTMLButtonElement>('button:last-of-type')?.focus(), []);
  return (
    <div
      ref={group}
      className="confirm"
      role="group"
      aria-label={props.label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onCancel();
      }}
    >
      <p>{props.children}</p>
      <Choice yes={props.yes} onYes={props.onYes} onCancel={props.onCancel} />
    </div>
  );
}
