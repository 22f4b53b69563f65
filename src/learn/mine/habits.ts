/**
 * Command habits of a project: sequences (one command regularly followed by another within
 * a 5-minute window), combos (commands chained in one line), and the project's
 * own commands for a purpose (its test, lint, build tasks). Pure: observations in,
 * candidates out; the quality gate decides what is worth keeping.
 */
import { slugify } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import {
  type Purpose,
  isEcosystemDefault,
  isGitFlow,
  isNoise,
  isProjectSpecific,
  meaningfulSegments,
  purposeOf,
  signatureSlug,
  splitCommand,
} from './commands.js';

const SEQUENCE_WINDOW_MS = 5 * 60_000;
const MAX_COMBO = 4;

const PURPOSE_VERB: Record<Purpose, string> = {
  test: 'run the tests',
  lint: 'lint',
  format: 'format code',
  build: 'build',
  typecheck: 'type-check',
  check: 'run the checks',
  generate: 'regenerate code',
  release: 'release',
  setup: 'set up the environment',
  run: 'run the project',
};

/** How a project is treated for a purpose, in a sentence's passive ("how cli is formatted"). */
const PURPOSE_PAST: Record<Purpose, string> = {
  test: 'tested',
  lint: 'linted',
  format: 'formatted',
  build: 'built',
  typecheck: 'type-checked',
  check: 'checked',
  generate: 'regenerated',
  release: 'released',
  setup: 'set up',
  run: 'run',
};

interface Step {
  signature: string;
  obs: Obs;
  call: number;
}

const projectLabel = (o: Obs): string => o.projectName || 'this project';

function steps(observations: readonly Obs[]): Step[] {
  const out: Step[] = [];
  observations.filter(isBash).forEach((o, call) => {
    for (const segment of meaningfulSegments(o.input)) out.push({ signature: segment.signature, obs: o, call });
  });
  return out;
}

/** Pairs A -> B of commands from separate calls, B within 5 minutes of A. */
export function mineSequences(observations: readonly Obs[]): Candidate[] {
  const list = steps(observations).filter((s) => s.obs.outcome === 'ok');
  const out: Candidate[] = [];
  for (let i = 0; i + 1 < list.length; i++) {
    const a = list[i] as Step;
    const b = list[i + 1] as Step;
    if (a.call === b.call || a.signature === b.signature) continue;
    if (b.obs.at - a.obs.at > SEQUENCE_WINDOW_MS) continue;
    const where = projectLabel(b.obs);
    out.push({
      ...seenIn(b.obs),
      key: `seq:${signatureSlug(a.signature)}->${signatureSlug(b.signature)}`,
      category: 'sequence',
      domain: 'tooling',
      title: `${a.signature} then ${b.signature}`,
      trigger: `after ${backtick(a.signature)} passes in ${where}`,
      action: `Run ${backtick(b.signature)} next.`,
      explain: `In ${where}, ${backtick(a.signature)} is followed by ${backtick(b.signature)} within 5 minutes.`,
      evidence: [`${backtick(a.signature)} then ${backtick(b.signature)}`],
      subjects: [a.signature, b.signature],
      miner: 'sequence',
      notable: false,
      tags: ['tooling', 'sequence'],
      facts: { steps: [a.signature, b.signature] },
    });
  }
  return out;
}

/** Commands chained with && or ; in one call. */
export function mineCombos(observations: readonly Obs[]): Candidate[] {
  const out: Candidate[] = [];
  for (const o of observations) {
    if (!isBash(o) || o.outcome !== 'ok') continue;
    const segments = splitCommand(o.input);
    const chained: string[] = [];
    segments.forEach((s, i) => {
      // A segment fed by a pipe is a filter (tail, grep, jq), not a command of its own.
      if (segments[i - 1]?.joiner === '|' || isNoise(s.signature) || isGitFlow(s.signature)) return;
      if (!chained.includes(s.signature)) chained.push(s.signature);
    });
    if (chained.length < 2) continue;
    const used = chained.slice(0, MAX_COMBO);
    const where = projectLabel(o);
    const purposes = used.map(purposeOf).filter((p): p is Purpose => p !== undefined);
    out.push({
      ...seenIn(o),
      key: `combo:${used.map(signatureSlug).join('+')}`,
      category: 'combo',
      domain: 'tooling',
      title: `${used.join(' && ')}`,
      trigger:
        purposes.length === used.length
          ? `before finishing a change in ${where}`
          : `when running ${backtick(used[0] as string)} in ${where}`,
      action: `Run them together: ${backtick(used.join(' && '))}.`,
      explain: `In ${where} these commands are run together in one line.`,
      evidence: [backtick(o.input.slice(0, 160))],
      subjects: used,
      miner: 'combo',
      notable: false,
      tags: ['tooling', 'combo'],
      facts: { steps: used },
    });
  }
  return out;
}

/** The qualifier of a task name: "ci" in `mise run test:ci`, "integration" in `make test-integration`. */
export function taskVariant(signature: string): string {
  const task = signature.split(' ').at(-1) ?? '';
  const parts = task.split(/[:_-]/).filter(Boolean);
  return parts.length > 1 ? parts.slice(1).join(' ') : '';
}

/** Package managers that run a package's tool by its name (`pnpm vitest`) as they run a script. */
const PACKAGE_MANAGERS = new Set(['pnpm', 'yarn', 'bun']);

/** Runners of a tool inside the project's environment (`uv run pytest`): the tool is no task the project defines. */
const ENVIRONMENT_RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'hatch', 'pdm']);

/** What a project-command instinct says: a task the project defines, or a tool it runs in its environment. */
function taskWords(signature: string, where: string, purpose: Purpose): { action: string; explain: string } {
  const how = `${backtick(signature)} is how ${where} is ${PURPOSE_PAST[purpose]}`;
  const [program = '', tool = ''] = signature.split(' ');
  if (ENVIRONMENT_RUNNERS.has(program))
    return { action: `Run it as ${backtick(signature)}, in the project's environment.`, explain: `${how}.` };
  // `pnpm vitest`: the toolchain itself, launched by the package manager, not a task the project defines.
  if (PACKAGE_MANAGERS.has(program) && isEcosystemDefault(tool))
    return { action: `Run ${backtick(signature)}: ${tool} through ${program}, as this project's sessions do.`, explain: `${how}.` };
  return {
    action: `Use the project's task ${backtick(signature)}${isEcosystemDefault(signature) ? '' : ' rather than calling the toolchain directly'}.`,
    explain: `${how}; it is defined by the project, not the toolchain.`,
  };
}

/** The project's own task for a purpose (its test/lint/build command), once per session. */
export function mineProjectCommands(observations: readonly Obs[]): Candidate[] {
  const out: Candidate[] = [];
  for (const o of observations) {
    if (!isBash(o) || o.outcome !== 'ok') continue;
    for (const segment of meaningfulSegments(o.input)) {
      const signature = segment.signature;
      const purpose = purposeOf(signature);
      if (!purpose || !isProjectSpecific(signature)) continue;
      const where = projectLabel(o);
      const variant = taskVariant(signature);
      out.push({
        ...seenIn(o),
        key: `pref:${slugify(where, 40)}/${purpose}=${signatureSlug(signature)}`,
        category: 'preference',
        domain: purpose === 'test' ? 'testing' : 'tooling',
        title: `${where}: ${PURPOSE_VERB[purpose]}${variant ? ` (${variant})` : ''} with ${signature}`,
        trigger: `when you need to ${PURPOSE_VERB[purpose]}${variant ? ` (${variant})` : ''} in ${where}`,
        ...taskWords(signature, where, purpose),
        evidence: [`ran ${backtick(segment.text.slice(0, 120))}`],
        subjects: [signature],
        miner: 'project-command',
        notable: false,
        tags: [purpose, 'project'],
        facts: { command: signature, purpose },
      });
    }
  }
  return out;
}
