/** A project's current facts, each with its corrections (FactActions). */
import { useCallback, useEffect, useState } from 'react';
import { type Fact, FactActions } from './FactActions.js';
import { Head } from './Head.js';
import { api, type Say } from './api.js';
import { MoreRows, pageOf } from './MoreRows.js';

export function Facts({ project, version, say }: { project: string; version: number; say: Say }) {
  const [facts, setFacts] = useState<Fact[] | undefined>();
  const [more, setMore] = useState(false);
  const [limit, setLimit] = useState(100);

  const load = useCallback(async () => {
    const page = pageOf((await api<{ facts: Fact[] }>(`/api/projects/${project}/facts?limit=${limit + 1}`)).facts, limit);
    setFacts(page.rows);
    setMore(page.more);
  }, [project, limit]);

  useEffect(() => {
    load().catch((err: Error) => say(err.message, true));
  }, [version, load, say]);

  return (
    <section aria-labelledby="facts-title">
      <h3 id="facts-title">Facts</h3>
      {facts && facts.length === 0 ? (
        <p>No current facts about this project.</p>
      ) : (
        <table id="facts">
          <Head columns={['Fact', 'Since', 'Correct it']} />
          <tbody>
            {(facts ?? []).map((f) => (
              <tr key={f.id} data-fact={f.id}>
                <td>{f.description}</td>
                <td>{f.valid_at.slice(0, 10)}</td>
                <td className="change">
                  <FactActions fact={f} say={say} changed={load} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <MoreRows
        shown={facts?.length ?? 0}
        more={more}
        all={`homunculus graph facts --project ${project} --limit 100000`}
        {...(limit < 999 ? { upTo: 999, onAll: () => setLimit(999) } : {})}
      />
    </section>
  );
}
