import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../core/project.js';
import type { NewObservation } from '../store/observations.js';
import type { HookInput } from './agents.js';
import { toolObservation } from './build.js';
import { lifecycleObservation, promptObservationFor } from './session-events.js';

// Secrets are assembled from pieces so the source never holds one verbatim.
const GHP = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
const PW = ['Hunter2', '-x9Q'].join('');
const project: ProjectInfo = { fingerprint: '0123456789abcdef', name: 'app', root: '/w/app', remote: null };

const hook = (tool: Partial<NonNullable<HookInput['tool']>>, over: Partial<HookInput> = {}): HookInput => ({
  agent: 'claude-code',
  event: 'PostToolUse',
  sessionId: 's1',
  cwd: '/w/app',
  ts: '2026-02-01T10:00:00.000Z',
  tool: { name: 'Bash', input: {}, failed: false, toolUseId: 't1', ...tool },
  ...over,
});

function stored(input: HookInput): NewObservation {
  const built = toolObservation(input, project);
  if (!('observation' in built)) throw new Error(`not recorded: ${built.detail}`);
  return built.observation;
}

/** Every string of an observation, derived fields included. */
const everything = (o: NewObservation): string => JSON.stringify(o);

describe('capture redacts every field that leaves the hook', () => {
  it('derives the base command from the redacted command', () => {
    const o = stored(hook({ input: { command: `./${GHP}.sh --deploy` } }));
    expect(everything(o)).not.toContain(GHP);
    expect(o.data?.base_command).toBe('[REDACTED:token].sh');
  });

  it('redacts file paths and the file name derived from them', () => {
    const o = stored(hook({ name: 'Read', input: { file_path: `/tmp/${GHP}/notes.txt` } }));
    expect(everything(o)).not.toContain(GHP);
    expect(o.files).toEqual(['/tmp/[REDACTED:token]/notes.txt']);
  });

  it('redacts a search pattern and the miners data', () => {
    const o = stored(hook({ name: 'Grep', input: { pattern: `password=${PW}`, path: 'src' } }));
    expect(everything(o)).not.toContain(PW);
  });

  it('hides secret-named fields of any tool input, whatever the value looks like', () => {
    const o = stored(hook({ name: 'mcp__db__connect', input: { host: 'db', password: 'plainword' } }));
    expect(everything(o)).not.toContain('plainword');
    expect(o.input).toContain('"host":"db"');
  });

  it('redacts the error of a response and the error text of the agent', () => {
    const failing = hook({
      input: { command: 'make deploy' },
      response: { stderr: `Error: mysql -u root -p${PW} failed`, exit_code: 1 },
    });
    expect(everything(stored(failing))).not.toContain(PW);
    const failed = hook({ input: { command: 'deploy' }, failed: true, error: `Exit code 1\nauth error: token ${GHP}` });
    expect(everything(stored(failed))).not.toContain(GHP);
  });

  it('redacts the working directory, the tool name and the agent version', () => {
    const o = stored(hook({ name: `mcp__${GHP}__run`, input: { command: 'x' } }, { cwd: `/w/${GHP}`, agentVersion: GHP }));
    expect(everything(o)).not.toContain(GHP);
  });

  it('redacts prompts and the reason of a session start', () => {
    const prompt = promptObservationFor(hook({}, { prompt: `deploy it, my password is ${PW}` }), project, 0);
    expect(JSON.stringify(prompt)).not.toContain(PW);
    const start = lifecycleObservation(hook({}, { reason: `token ${GHP}` }), project, 'start');
    expect(JSON.stringify(start)).not.toContain(GHP);
  });
});
