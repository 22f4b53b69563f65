/**
 * Changing one instinct by hand: edit its trigger and action (an inline form), merge it into
 * another pattern, promote it to a conviction or withdraw one, forget it (after a confirmation).
 * Each goes through the server's correction routes, logged as the dashboard's; what changed is
 * said in #message.
 */
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { counted, ruleLabel, type Instinct, type Say } from './api.js';
import { Choice, Confirm } from './Confirm.js';
import { useCorrection } from './use-correction.js';

interface EditResult {
  pattern: string;
  changed: ('trigger' | 'action' | 'title')[];
}
interface ForgetResult {
  pattern: string;
  trigger: string;
  evidence: number;
  conviction: boolean;
}
interface MergeResult {
  aliased: string;
  target: string;
  evidence_moved: number;
}
interface ConvictionResult {
  pattern: string;
  title: string;
  /** Whether the rule would have promoted it; promoted by hand either way. */
  eligible?: boolean;
  blockers?: string[];
}

/** What a promotion by hand did, and the bar it had not met when the rule would not have. */
const promotedText = (trigger: string, r: ConvictionResult): string =>
  r.eligible === false && r.blockers?.length
    ? `Promoted “${trigger}” to a conviction by hand; the rule would not have yet (${r.blockers.join('; ')}).`
    : `Promoted “${trigger}” to a conviction.`;

type Mode = 'idle' | 'edit' | 'merge' | 'forget';

interface Props {
  instinct: Instinct;
  /** The instincts it may be merged into. */
  others: readonly Instinct[];
  say: Say;
  /** After a change: reload what is shown. */
  changed: () => Promise<void> | void;
}

export function InstinctActions({ instinct, others, say, changed }: Props) {
  const [mode, setMode] = useState<Mode>('idle');
  const [trigger, setTrigger] = useState(instinct.trigger);
  const [action, setAction] = useState(instinct.action);
  const [target, setTarget] = useState('');
  // What the edit form started from: the server refuses the edit if someone changed it meanwhile.
  const [was, setWas] = useState({ trigger: instinct.trigger, action: instinct.action });
  const key = instinct.pattern;
  // What a screen reader names it by: the rule in words, as the row shows it.
  const name = ruleLabel(instinct);

  const { correct } = useCorrection(say, changed);
  const run = <T,>(path: string, body: object, message: (r: T) => string) =>
    correct<T>(path, { pattern: key, ...body }, message, () => setMode('idle'));

  // The button a form was opened from gets the keyboard back when it closes unsaved.
  const opener = useRef<Mode>('idle');
  const buttons = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (mode !== 'idle' || opener.current === 'idle') return;
    buttons.current?.querySelector<HTMLButtonElement>(`button[data-mode="${opener.current}"]`)?.focus();
    opener.current = 'idle';
  }, [mode]);

  const open = (next: Mode) => {
    setTrigger(instinct.trigger);
    setAction(instinct.action);
    setWas({ trigger: instinct.trigger, action: instinct.action });
    setTarget('');
    opener.current = next;
    setMode(next);
  };
  const cancel = () => setMode('idle');
  // Escape cancels a form, as it does a confirmation; Ctrl+Enter (or Cmd+Enter) saves from a text box.
  const keys = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Escape') cancel();
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.requestSubmit();
  };
  // A merge target forgotten meanwhile (from the command line) is no choice any more.
  const chosen = others.some((o) => o.pattern === target && o.pattern !== key) ? target : '';

  const saveEdit = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      ...(trigger !== was.trigger ? { trigger } : {}),
      ...(action !== was.action ? { action } : {}),
    };
    if (Object.keys(body).length === 0) {
      setMode('idle');
      say(`Nothing changed in “${instinct.trigger}”.`);
      return;
    }
    void run<EditResult>('/api/instincts/edit', { ...body, was }, (r) =>
      // The title follows the trigger by itself: the page names what the user rewrote.
      r.changed.length
        ? `Edited the ${r.changed.filter((f) => f !== 'title').join(' and ')} of “${trigger}”.`
        : `Nothing changed in “${instinct.trigger}”.`,
    );
  };

  const merge = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return say('Choose the pattern to merge it into.', true);
    void run<MergeResult>(
      '/api/instincts/alias',
      { target: chosen },
      (r) =>
        `Merged “${instinct.trigger}” into “${others.find((o) => o.pattern === r.target)?.trigger ?? r.target}” (${counted(r.evidence_moved, 'observation')} moved).`,
    );
  };

  if (mode === 'edit')
    return (
      <form className="inline" aria-label={`Edit ${name}`} onSubmit={saveEdit} onKeyDown={keys}>
        <label>
          When
          <textarea
            aria-label={`trigger of ${name}`}
            rows={2}
            value={trigger}
            onChange={(e) => setTrigger(e.target.value)}
            // The keyboard lands in the form it opened, so what is typed next is not lost.
            autoFocus
          />
        </label>
        <label>
          Do
          <textarea aria-label={`action of ${name}`} rows={3} value={action} onChange={(e) => setAction(e.target.value)} />
        </label>
        <Choice yes="Save" onCancel={cancel} />
      </form>
    );

  if (mode === 'merge')
    return (
      <form className="inline" aria-label={`Merge ${name}`} onSubmit={merge} onKeyDown={keys}>
        <label>
          Merge into
          <select aria-label={`merge target of ${name}`} value={chosen} onChange={(e) => setTarget(e.target.value)} autoFocus>
            <option value="">Choose a pattern…</option>
            {others
              .filter((o) => o.pattern !== key)
              .map((o) => (
                <option key={o.pattern} value={o.pattern}>
                  {ruleLabel(o)}
                </option>
              ))}
          </select>
        </label>
        <Choice yes="Merge" onCancel={cancel} />
      </form>
    );

  if (mode === 'forget')
    return (
      <Confirm
        label={`Forget ${name}?`}
        yes="Yes, forget it"
        onYes={() =>
          void run<ForgetResult>(
            '/api/instincts/forget',
            {},
            (r) => `Forgot “${r.trigger}” (${counted(r.evidence, 'observation')}${r.conviction ? ', and its conviction' : ''}).`,
          )
        }
        onCancel={cancel}
      >
        Forget “{instinct.trigger}”{instinct.conviction ? ' and its conviction' : ''}? Its history is kept; only what happens from now on
        can teach it again.
      </Confirm>
    );

  return (
    <span ref={buttons}>
      <button type="button" aria-label={`edit: ${name}`} data-mode="edit" onClick={() => open('edit')}>
        edit
      </button>
      <button type="button" aria-label={`merge: ${name}`} data-mode="merge" onClick={() => open('merge')}>
        merge
      </button>
      {instinct.conviction ? (
        <button
          type="button"
          aria-label={`un-promote: ${name}`}
          onClick={() =>
            void run<ConvictionResult>('/api/instincts/unpromote', {}, () => `Un-promoted “${instinct.trigger}”: no longer a conviction.`)
          }
        >
          un-promote
        </button>
      ) : (
        <button
          type="button"
          aria-label={`promote: ${name}`}
          onClick={() => void run<ConvictionResult>('/api/instincts/promote', {}, (r) => promotedText(instinct.trigger, r))}
        >
          promote
        </button>
      )}
      <button type="button" aria-label={`forget: ${name}`} data-mode="forget" onClick={() => open('forget')}>
        forget
      </button>
    </span>
  );
}
