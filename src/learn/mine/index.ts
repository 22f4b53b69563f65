/** Every deterministic miner over one session's observations: always on, no LLM needed. */
import type { Obs } from '../observation.js';
import { type Candidate, uniqueByKey } from './candidate.js';
import { mineBranchUpdates } from './branches.js';
import { mineCommitStyle } from './commits.js';
import { editedProjectFiles, mineCoedits } from './coedits.js';
import { mineEndpoints } from './endpoints.js';
import { mineFixes } from './fixes.js';
import { mineCombos, mineProjectCommands, mineSequences } from './habits.js';
import { mineRecipes } from './recipes.js';
import { mineQuirks } from './quirks.js';
import { mineRejections } from './rejections.js';
import { mineFeedbackAssessment, mineRequests } from './requests.js';
import { mineServices } from './services.js';
import { mineDocsInStep, mineParallels } from './structure.js';
import { type SessionSignal, sessionSignals, signalCandidate } from './signals.js';

interface SessionMining {
  candidates: Candidate[];
  signals: SessionSignal[];
  /** Project-relative files the session edited (co-edit tallies and contradictions). */
  editedFiles: string[];
  /** How its commits were written, when it made any (the commit-style rule must hold across the project). */
  commitStyle?: 'conventional' | 'other';
}

export function mineSession(observations: readonly Obs[]): SessionMining {
  const ordered = [...observations].sort((a, b) => a.at - b.at || a.id - b.id);
  const projectName = ordered.find((o) => o.projectName)?.projectName ?? '';
  const signals = sessionSignals(ordered);
  const { style: commitStyle, candidates: commitCandidates } = mineCommitStyle(ordered);
  const candidates = uniqueByKey([
    ...mineQuirks(ordered),
    ...mineFixes(ordered),
    ...signals.map((s) => signalCandidate(s, projectName)),
    ...mineRejections(ordered),
    ...mineRequests(ordered),
    ...mineFeedbackAssessment(ordered),
    ...mineRecipes(ordered),
    ...mineEndpoints(ordered),
    ...mineServices(ordered),
    ...mineBranchUpdates(ordered),
    ...mineCoedits(ordered),
    ...mineParallels(ordered),
    ...mineDocsInStep(ordered),
    ...mineSequences(ordered),
    ...mineCombos(ordered),
    ...mineProjectCommands(ordered),
    ...commitCandidates,
  ]);
  return { candidates, signals, editedFiles: editedProjectFiles(ordered), ...(commitStyle ? { commitStyle } : {}) };
}
