/**
 * Deterministic extraction from one session (no model): the project and its stack from
 * manifests, the tools it ran, the files it changed, errors and what fixed them, and the
 * user's preferences and decisions. Descriptions are stable sentences (counts live in
 * metadata) so that the same knowledge seen again deduplicates instead of piling up.
 */
import { relative, isAbsolute } from 'node:path';
import { failedCommand, statusCommands } from '../../capture/map/command.js';
import { errorSignatures, isToolGuardError } from '../../learn/mine/errors.js';
import { truncate } from '../../core/text.js';
import type { SessionEvent } from './events.js';
import { fileProblem, toolProblem } from './gate.js';
import type { ManifestInfo } from './manifests.js';
import { type Signal, sessionSignals } from './signals.js';
import type { ExtractedEntity, ExtractedFact } from './types.js';

const MAX_TOOLS = 15;
const MAX_FILES = 10;
const MAX_ERRORS = 5;

/** Shell plumbing that says nothing about a project's tooling. */
const TRIVIAL_COMMANDS = new Set(
  'cd ls cat echo pwd mkdir rm cp mv head tail grep rg find sed awk wc sleep true false export source which chmod chown touch sort uniq xargs tee printf test env set unset kill ps date tr cut diff less more file stat du df open clear history for while if do done then else fi case esac until read eval exec'.split(
    ' ',
  ),
);

const FILE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const INSTALL =
  /\b(?:npm\s+(?:install|i|add)|pnpm\s+add|yarn\s+add|bun\s+add|pip3?\s+install|uv\s+add|poetry\s+add|cargo\s+add|go\s+get|gem\s+install|bundle\s+add)\s+((?:[^\s;&|]+\s*)+)/g;

interface SessionContext {
  /** root: where manifests were read; paths under `display` (the root, else the session cwd) are shown relative. */
  project: { name: string; fingerprint: string; root: string; display?: string };
  sessionId: string;
  manifests?: ManifestInfo;
}

/** In quotes once: a named error's label comes quoted already ("\"uv: command not found\""). Pure. */
const quoted = (text: string): string => (/^".*"$/s.test(text) ? text : `"${text}"`);

/** A merge or rebase stopped on a conflict: that moment's two histories, not an error the project has or a fix to learn. */
const CONFLICT = /\bcould not apply [0-9a-f]{7,40}\b|^CONFLICT \(|Automatic merge failed; fix conflicts|\bMerge conflict in\b/m;

/** What a test run prints for a package that passed: never the error, whatever line the failure came on. */
const PASSING_LINE =
  /^(?:ok\s+\S+(?:\s+\(cached\)|\s+[\d.]+s)?|PASS|--- PASS: .*|=== (?:RUN|PAUSE|CONT|NAME)\s.*|\?\s+\S+\s+\[no test files\])$/;

/**
 * The error's gist, at most 80 characters: the line that names the error (a fatal/error/
 * panic line, else a file:line:col diagnostic, else the first line), with paths, numbers
 * and quoted values blanked so that the same error seen twice has one signature.
 */
export function errorSignature(error: string): string {
  const lines = error
    .replace(/<\/?tool_use_error>/g, '')
    .split(/\n| \| /)
    // Capture's summaries open with the exit code ("exit 1: ..."): the message is what follows.
    .map((l) => l.trim().replace(/^exit -?\d+:\s*/i, ''))
    .filter(
      (l) =>
        l &&
        !/^(exit(?: code)? -?\d+|error:?|command failed.*|stderr:?|[-=*_]{3,})$/i.test(l) &&
        !/\berror task failed$/i.test(l) &&
        !PASSING_LINE.test(l),
    );
  const named = lines.find((l) =>
    /^(fatal|error|panic)\b|error:|\bFAIL\b|exception|cannot|can't|not found|no such|denied|undefined|unknown (option|command)|failed to/i.test(
      l,
    ),
  );
  const diagnostic = lines.find((l) => /:\d+(:\d+)?:/.test(l));
  return truncate(
    (named ?? diagnostic ?? lines[0] ?? '')
      // What a redrawn progress line left in front of the message ("Rebasing (1/3) error: …").
      .replace(/^.*?\b(?=(?:fatal|error|panic):)/i, '')
      .replace(/(?:[A-Za-z]:)?(?:[\w.@~-]*\/)+[\w.@-]*/g, '<path>')
      .replace(/(["'`])(?:(?!\1).){1,80}\1/g, '<value>')
      // A duration keeps its unit: "(0.05s)" and "(1.22s)" are one failure.
      .replace(/\b\d+(?:[.:]\d+)*(ms|µs|ns|s|m|h)?\b/g, 'N$1')
      .replace(/\s+/g, ' ')
      .trim(),
    80,
  );
}

/** The shell could not read the line, so no command of it ran: the agent's quoting slip, no tool's failure. */
const SHELL_PARSE_ERROR = /\(eval\):\d+: parse error|syntax error near unexpected token|unexpected EOF while looking for matching/;

/** `npm test`, `tsc`, `cargo build`: the command an error and its fix are matched on; of a failed chain, the one that failed. */
export function commandKey(e: SessionEvent): string {
  if (e.tool !== 'Bash') return e.tool;
  return (e.outcome === 'error' && e.input ? failedCommand(e.input, e.error) : '') || e.baseCommand || e.tool;
}

/** The command `key` passed in this event: a passing `git add f && git rebase --continue` passed git rebase too. */
const passes = (x: SessionEvent, key: string): boolean =>
  x.event === 'tool' && x.outcome === 'ok' && (commandKey(x) === key || (x.tool === 'Bash' && statusCommands(x.input).includes(key)));

function installed(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(INSTALL)) {
    for (const w of (m[1] ?? '').split(/\s+/)) {
      if (!w || w.startsWith('-') || w.startsWith('.') || w.includes('=')) continue;
      // zod@4 -> zod, @scope/pkg@1.2 -> @scope/pkg, requests>=2 -> requests
      const name = (w.startsWith('@') ? w.replace(/^(@[^@]+)@.*$/, '$1') : w.replace(/@.*$/, '')).replace(/[<>=~^!].*$/, '');
      if (/^[@\w][\w@/.-]*$/.test(name)) out.push(name);
    }
  }
  return out;
}

function displayPath(path: string, root: string): string {
  if (root && isAbsolute(path)) {
    const rel = relative(root, path);
    if (!rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return path;
}

function signalFacts(signals: readonly Signal[], project: ExtractedEntity): ExtractedFact[] {
  const user: ExtractedEntity = { name: 'user', type: 'person' };
  return signals.map((s) => {
    const correction = s.type === 'correction';
    if (s.type === 'decision' && s.object) {
      return {
        source: user,
        target: { name: s.object, type: 'decision' },
        relation: 'decided_for',
        description: `For ${project.name}, the user decided: ${s.text}`,
        confidence: 0.8,
        metadata: { signal: s.type },
      };
    }
    return {
      source: user,
      target: { name: truncate(s.normalized, 60), type: 'preference' },
      relation: s.polarity === 'against' && s.type !== 'correction' ? 'decided_against' : 'prefers',
      description: `The user ${correction ? 'corrected' : 'said'}: ${s.text}`,
      confidence: s.type === 'explicit' || correction ? 0.8 : 0.7,
      correction,
      metadata: { signal: s.type },
    };
  });
}

/** The project's languages and declared dependencies, from its manifests. */
function manifestFacts(m: ManifestInfo | undefined, project: ExtractedEntity): ExtractedFact[] {
  const languages = (m?.languages ?? []).map((language): ExtractedFact => ({
    source: project,
    target: { name: language, type: 'tool' },
    relation: 'uses',
    description: `${project.name} is written in ${language}`,
    confidence: 0.9,
    metadata: { from: 'manifest' },
  }));
  const dependencies = (m?.dependencies ?? []).map((d): ExtractedFact => ({
    source: project,
    target: { name: d.name, type: 'library' },
    relation: 'depends_on',
    description: `${project.name} depends on ${d.name}${d.version ? ` ${d.version}` : ''}${d.dev ? ' for development' : ''} (${d.manifest})`,
    confidence: 0.95,
    metadata: { from: 'manifest', manifest: d.manifest, version: d.version, dev: d.dev },
  }));
  return [...languages, ...dependencies];
}

/** What the session's tool calls show: programs and MCP servers used, packages installed, files edited. */
function usage(events: readonly SessionEvent[]): { tools: Map<string, number>; installs: Set<string>; edits: Map<string, number> } {
  const tools = new Map<string, number>();
  const installs = new Set<string>();
  const edits = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const e of events) {
    if (e.event !== 'tool') continue;
    // The tool is the program: `git commit` and `git push` are both git.
    const program = e.tool === 'Bash' ? (e.baseCommand.split(' ')[0] ?? '') : '';
    if (program && !TRIVIAL_COMMANDS.has(program) && !toolProblem(program)) count(tools, program);
    if (e.tool.startsWith('mcp__')) count(tools, `${e.tool.split('__')[1]} MCP server`);
    if (e.tool === 'Bash' && e.outcome === 'ok') for (const name of installed(e.input)) installs.add(name);
    if (FILE_TOOLS.has(e.tool)) for (const f of e.files.length ? e.files : [e.input]) if (f) count(edits, f);
  }
  return { tools, installs, edits };
}

/** The most used first, ties by name. */
const busiest = (counts: Map<string, number>, max: number): [string, number][] =>
  [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, max);

/** Tools, packages installed but not declared, and the files worked on. */
function usageFacts(events: readonly SessionEvent[], ctx: SessionContext, project: ExtractedEntity): ExtractedFact[] {
  const { tools, installs, edits } = usage(events);
  const facts: ExtractedFact[] = busiest(tools, MAX_TOOLS).map(([tool, count]) => {
    const mcp = tool.endsWith(' MCP server');
    return {
      source: project,
      target: { name: tool, type: 'tool' },
      relation: mcp ? 'integrates' : 'uses',
      description: `${project.name} ${mcp ? 'integrates the' : 'uses the'} ${tool}${mcp ? '' : ' command'}`,
      confidence: 0.7,
      metadata: { count },
    };
  });
  const known = new Set((ctx.manifests?.dependencies ?? []).map((d) => d.name));
  for (const name of [...installs].filter((n) => !known.has(n))) {
    facts.push({
      source: project,
      target: { name, type: 'library' },
      relation: 'depends_on',
      description: `${project.name} depends on ${name} (installed during a session)`,
      confidence: 0.7,
      metadata: { from: 'install' },
    });
  }
  for (const [file, count] of busiest(edits, MAX_FILES)) {
    const shown = displayPath(file, ctx.project.display ?? ctx.project.root);
    // Inside the project a path is shown relative to it; what stays absolute lies outside.
    if (fileProblem(shown)) continue;
    facts.push({
      source: project,
      target: { name: shown, type: 'file' },
      relation: 'has_component',
      description: `${project.name} contains the file ${shown}`,
      confidence: 0.8,
      metadata: { edits: count },
    });
  }
  return facts;
}

export function extractSessionFacts(events: readonly SessionEvent[], ctx: SessionContext): ExtractedFact[] {
  const project: ExtractedEntity = {
    name: ctx.project.name,
    type: 'project',
    properties: { fingerprint: ctx.project.fingerprint, root: ctx.project.root },
  };
  return [
    ...manifestFacts(ctx.manifests, project),
    ...usageFacts(events, ctx, project),
    ...errorFacts(events, project, ctx.project.display ?? ctx.project.root),
    ...signalFacts(sessionSignals(events.filter((e) => e.event === 'prompt').map((e) => e.input)), project),
  ];
}

/** Error classes named by their tool's own rule or code (not by a message a catch-all kept). */
const NAMED_CLASS = /^(?:golangci|eslint|ts|npm|command-not-found|zsh)-|^go-build-constraints$/;

/** Each distinct error, and what fixed it: the files edited before the same command next succeeded. */
function errorFacts(events: readonly SessionEvent[], project: ExtractedEntity, root: string): ExtractedFact[] {
  const out: ExtractedFact[] = [];
  const seen = new Set<string>();
  events.forEach((e, i) => {
    // Errors of commands; a file tool's error is the agent's own slip ("file not read yet").
    if (e.event !== 'tool' || e.outcome !== 'error' || out.length >= MAX_ERRORS || !(e.tool === 'Bash' || e.tool.startsWith('mcp__')))
      return;
    const key = commandKey(e);
    // A known class of error (a linter's rule, a shell quirk) is one entity across sessions; a
    // compile error or failing test is named by its message; an exit code alone says nothing.
    // A sibling call's failure or a refused edit is Claude Code's guard speaking, not the tool.
    if (isToolGuardError(e.error) || SHELL_PARSE_ERROR.test(e.error) || CONFLICT.test(e.error)) return;
    const known = errorSignatures(e.error, 1)[0];
    const signature = known && NAMED_CLASS.test(known.id) ? known.label : errorSignature(e.error);
    if (!signature) return;
    const name = truncate(`${key}: ${signature}`, 100);
    if (seen.has(name)) return;
    seen.add(name);
    const error: ExtractedEntity = { name, type: 'error_pattern', properties: { command: key } };
    const later = events.slice(i + 1);
    const fixedAt = later.findIndex((x) => passes(x, key));
    const edited =
      fixedAt < 0
        ? []
        : [
            ...new Set(
              later
                .slice(0, fixedAt)
                .filter((x) => FILE_TOOLS.has(x.tool))
                .flatMap((x) => (x.files.length ? x.files : [x.input]))
                .filter(Boolean),
            ),
          ];
    const fix = later[fixedAt];
    const files = edited.map((f) => displayPath(f, root)).filter((f) => !fileProblem(f));
    if (fix && files.length > 0) {
      out.push({
        source: error,
        target: { name: files[0] as string, type: 'file' },
        relation: 'solved_by',
        description: `When ${key} fails with ${quoted(signature)} → edit ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`,
        confidence: 0.7,
        validAt: fix.ts || undefined,
        metadata: { files },
      });
    } else if (!fix && signature !== 'failed') {
      // A failure that says nothing ("mise run: failed") is not knowledge about the project.
      out.push({
        source: project,
        target: error,
        relation: 'blocked_by',
        description: `${project.name}: ${key} failed with ${quoted(signature)}`,
        confidence: 0.6,
        validAt: e.ts || undefined,
      });
    }
  });
  return out;
}
