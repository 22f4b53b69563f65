/**
 * One transcript read into the observations it holds, through the live hooks' own steps
 * (normalise, map, redact): pure mapping, nothing written yet.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type ProjectInfo } from '../../core/project.js';
import { projectIn } from '../../core/project-alias.js';
import type { HookInput } from '../agents.js';
import { type Built, toolObservation } from '../build.js';
import { normalise } from '../normalise.js';
import { promptText } from '../redact.js';
import { lifecycleObservation, promptObservationFor } from '../session-events.js';
import { type TranscriptEvent, TranscriptReplay, type TranscriptStats } from './replay.js';
import { type Turn, TurnCollector } from './turns.js';

export interface FilePlan {
  built: Built[];
  /** The session's turns, for search inside it. */
  turns: Turn[];
  /** The session's end, when the transcript names a session. */
  end?: { input: HookInput; project: ProjectInfo };
  stats: TranscriptStats;
}

async function* lines(file: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

/**
 * The project of each working directory, resolved once per file. A session can move
 * between directories (and so projects); each call keeps the one the live hook gave it.
 */
function projectsOfFile(aliasesPath: string): (cwd: string) => ProjectInfo {
  const projects = new Map<string, ProjectInfo>();
  return (cwd) => {
    let project = projects.get(cwd);
    if (!project) {
      // A subfolder of a directory this machine does not have belongs to that directory's
      // project (a session that cd'ed into cmd/app/strategy is still in the repository).
      const parent = [...projects.entries()].find(([dir, p]) => p.remote === null && cwd.startsWith(`${dir}/`));
      project = parent && !existsSync(cwd) ? parent[1] : projectIn(cwd, aliasesPath);
      projects.set(cwd, project);
    }
    return project;
  };
}

/** `aliasesPath`: the home's projects.json, so a checkout joined to imported history imports there too. */
export async function planFile(file: string, aliasesPath: string): Promise<FilePlan> {
  const replay = new TranscriptReplay(file);
  const projectOf = projectsOfFile(aliasesPath);
  const turns = new TurnCollector();
  const plan: FilePlan = { built: [], turns: [], stats: replay.stats };
  const occurrences = new Map<string, number>();
  const take = (events: Iterable<TranscriptEvent>): void => {
    for (const event of events) {
      if (event.hook === 'answer') {
        turns.answer(String(event.payload.answer ?? ''));
        continue;
      }
      const input = normalise(event.payload, 'claude-code', String(event.payload.timestamp ?? ''));
      const project = projectOf(input.cwd);
      if (event.hook === 'observe') {
        const built = toolObservation(input, project);
        plan.built.push(built);
        if ('observation' in built) turns.tool(built.observation);
      } else if (event.hook === 'start') plan.built.push(lifecycleObservation(input, project, 'start'));
      else if (event.hook === 'stop') {
        plan.built.push(lifecycleObservation(input, project, 'end'));
        plan.end = { input, project };
      } else if (event.hook === 'prompt') {
        // The n-th identical prompt of the session gets the id the live hook gave it.
        const text = promptText(input.prompt ?? '');
        const n = occurrences.get(text) ?? 0;
        occurrences.set(text, n + 1);
        plan.built.push(promptObservationFor(input, project, n));
        turns.prompt(input.prompt ?? '', input.ts, project.fingerprint);
      }
    }
  };
  for await (const line of lines(file)) take(replay.feed(line));
  take(replay.finish());
  plan.turns = turns.turns();
  return plan;
}
