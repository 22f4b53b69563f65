/** A table of instincts, each with a strong / weak / wrong correction and the changes by hand (InstinctActions). */
import { Fragment } from 'react';
import { Head } from './Head.js';
import { InstinctActions } from './InstinctActions.js';
import { useCorrection } from './use-correction.js';
import { ruleLabel, type FeedbackResult, type Instinct, type Verdict, type Say } from './api.js';

const VERDICTS: readonly Verdict[] = ['strong', 'weak', 'wrong'];
/** What the user's latest verdict does, said on the row: a score at its floor changes nothing visible. */
const VERDICT_BADGE: Readonly<Record<Verdict, string>> = {
  strong: ' marked strong',
  weak: ' marked weak',
  wrong: ' marked wrong: no longer given to agents',
};

interface Props {
  id: string;
  instincts: readonly Instinct[];
  say: Say;
  /** Reloads the instincts after a change. */
  reload: () => Promise<void> | void;
}

/** A rule's words with a line break allowed after each slash: a long path breaks between its parts, never inside a word. */
function breakable(text: string) {
  return text.split(/(?<=\/)/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

export function InstinctTable({ id, instincts, say, reload }: Props) {
  const { busy, correct: send } = useCorrection(say, reload);
  const correct = (instinct: Instinct, verdict: Verdict) =>
    send<FeedbackResult>(
      '/api/instincts/feedback',
      { pattern: instinct.pattern, verdict },
      (r) =>
        `Marked “${instinct.trigger}” ${verdict}: confidence ${r.before.toFixed(2)} to ${r.after.toFixed(2)}.${r.note ? ` ${r.note}` : ''}`,
    );

  return (
    <table id={id} className="instincts">
      <Head columns={['When', 'Do', 'Confidence', 'Seen', 'Correct it', 'Change it']} />
      <tbody>
        {instincts.map((i) => (
          <tr key={i.pattern} data-pattern={i.pattern} data-conviction={i.conviction ? 'yes' : undefined}>
            <td className="text" data-label="When">
              {breakable(i.trigger)}
            </td>
            <td className="text" data-label="Do">
              {breakable(i.action)}
              {i.conviction && <span className="badge"> conviction</span>}
              {i.verdict && <span className="badge verdict">{VERDICT_BADGE[i.verdict]}</span>}
            </td>
            <td className="num" data-label="Confidence">
              {i.confidence.toFixed(2)}
            </td>
            <td className="num" data-label="Seen">
              {i.evidence}
            </td>
            <td className="verdicts" data-label="Correct it">
              {VERDICTS.map((v) => (
                <button key={v} type="button" aria-label={`${v}: ${ruleLabel(i)}`} disabled={busy} onClick={() => void correct(i, v)}>
                  {v}
                </button>
              ))}
            </td>
            <td className="change" data-label="Change it">
              <InstinctActions instinct={i} others={instincts} say={say} changed={reload} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
