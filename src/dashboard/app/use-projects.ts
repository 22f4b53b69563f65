/**
 * The projects sessions were seen in, the most active first, and the one chosen: until the user
 * picks another, the most active that has learned something (a chat with the personal agent is a
 * project too, and opening on its empty page hid the one the user works in), else the most active.
 */
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
        const first = list.find((p) => p.instincts > 0) ?? list[0];
        setChosen((current) => current || (first?.project ?? ''));
      })
      .catch((err: Error) => onError(err.message));
  }, [version, onError]);
  return { projects, chosen, setChosen };
}
