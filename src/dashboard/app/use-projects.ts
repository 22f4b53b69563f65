/** The projects sessions were seen in, the most active first, and the one chosen (the first, until the user picks another). */
import { useEffect, useState } from 'react';
import { api, type ProjectActivity } from './api.js';

/** Reloaded when `version` changes; `onError` must keep its identity across renders (a state setter, the page's say). */
export function useProjects(version: number, onError: (message: string) => void) {
  const [projects, setProjects] = useState<ProjectActivity[]>([]);
  const [chosen, setChosen] = useState('');
  useEffect(() => {
    api<{ projects: ProjectActivity[] }>('/api/projects')
      .then(({ projects: list }) => {
        setProjects(list);
        setChosen((current) => current || (list[0]?.project ?? ''));
      })
      .catch((err: Error) => onError(err.message));
  }, [version, onError]);
  return { projects, chosen, setChosen };
}
