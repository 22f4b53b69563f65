/** Forgetting one memory a chat source quoted: a button, then a confirmation; memory.delete removes it and its index entries. */
import { useState } from 'react';
import { api, type Say } from './api.js';

interface Props {
  collection: string;
  id: string;
  /** What the page says after (the memory is gone, or why not). */
  say: Say;
}

export function ForgetMemory({ collection, id, say }: Props) {
  const [asking, setAsking] = useState(false);
  const [gone, setGone] = useState(false);
  const forget = async () => {
    try {
      const r = await api<{ deleted: number }>('/api/memories/forget', { ids: [id], collection });
      setGone(r.deleted > 0);
      say(r.deleted > 0 ? `Forgot the memory ${collection}/${id}.` : `The memory ${collection}/${id} was already gone.`);
    } catch (err) {
      say((err as Error).message, true);
    } finally {
      setAsking(false);
    }
  };
  if (gone) return <span className="note"> (forgotten)</span>;
  if (!asking)
    return (
      <button type="button" aria-label={`forget memory ${collection}/${id}`} onClick={() => setAsking(true)}>
        forget
      </button>
    );
  return (
    <span role="group" aria-label={`Forget memory ${collection}/${id}?`}>
      Forget it for good?{' '}
      <button type="button" onClick={() => void forget()}>
        Yes, forget
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
