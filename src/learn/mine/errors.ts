/**
 * Error signatures: the stable identity of a failure ("golangci-lint errcheck",
 * "npm ERESOLVE", "go: cannot find main module"), read from a command's error text.
 * `generic` marks failures whose fix is the obvious next step (a compile error, a failing
 * test, a merge conflict): they are never worth an instinct of their own.
 */
import { slugify, truncate } from '../../core/text.js';

export interface ErrorSignature {
  id: string;
  label: string;
  /** One representative message, for the instinct's text. */
  headline: string;
  generic: boolean;
  /** What to do before it happens, when the class has one answer whatever the command (a shell's quirk). */
  remedy?: { when: string; action: string };
}

/** Messages from Claude Code's own tool guard, not from the user's tools. */
const TOOL_GUARD =
  /Sibling tool call errored|File has not been read yet|has been modified since read|String to replace not found|File does not exist|Request interrupted|user doesn't want to proceed|rejected by the user|Permission to use \w+ has been denied|operation was aborted|InputValidationError/i;

export const isToolGuardError = (text: string): boolean => TOOL_GUARD.test(text);

/** Lines of an error summary (capture joins lines with " | "; raw text uses newlines). */
export function errorLines(text: string): string[] {
  return text
    .split(/\n| \| /)
    .map((l) =>
      l
        .replace(/^exit -?\d+:\s*/, '')
        .replace(/^\[[\w:.-]+\]\s*/, '')
        .trim(),
    )
    .filter(Boolean);
}

/** Strips what differs between occurrences: paths, positions, numbers, hashes. */
export function normaliseMessage(message: string): string {
  return message
    .replace(/\b[0-9a-f]{7,40}\b/gi, '')
    .replace(/(?:\/[\w.@~-]+)+\/?/g, '')
    .replace(/\b\d+(?:\.\d+)*\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const GOLANGCI = /^(\S+?):(\d+)(?::(\d+))?:\s*(.+?)\s*\(([a-z][\w-]*)\)$/;
const GO_COMPILE =
  /undefined: |\bundefined \(type |declared and not used|imported and not used|cannot use .* as |too many arguments|not enough arguments|missing return|syntax error|has no field or method/;

/** One representative message: positions and line ranges that only held that day are dropped. */
function shorten(message: string): string {
  const cleaned = message
    .replace(/^\d+-\d+\s+/, '')
    .replace(/`([^`\s]+?):\d+(?:-\d+)?`/g, '`$1`')
    .replace(/\s+/g, ' ')
    .trim();
  return truncate(cleaned, 160);
}

const sig = (id: string, label: string, headline: string, generic: boolean): ErrorSignature => ({
  id,
  label,
  headline: shorten(headline),
  generic,
});

const ZSH_GLOB_REMEDY = {
  when: 'when a shell command uses a glob or a URL with `?`',
  action:
    "Where the shell is zsh (macOS's default, and this project's sessions ran it), a glob that matches nothing aborts the whole command: quote URLs that contain `?` or `*` (`gh api 'repos/OWNER/REPO/issues?per_page=100'`) and guard globs that may match nothing (`find DIR -name '*.log'`, or `setopt nullglob` first).",
};

/** A line's signature by one tool's message format, or undefined when the line is not in it. */
type LineReader = (line: string) => ErrorSignature | undefined;

const golangci: LineReader = (line) => {
  const lint = GOLANGCI.exec(line);
  if (!lint) return undefined;
  const linter = lint[5] as string;
  const message = lint[4] as string;
  if (linter === 'typecheck') return sig('go-compile', 'a Go compile error', message, true);
  const code = /^([GS]A?\d{3,4}|ST\d{4}):/.exec(message)?.[1];
  return sig(
    `golangci-${linter}${code ? `-${code.toLowerCase()}` : ''}`,
    `golangci-lint ${linter}${code ? ` ${code}` : ''}`,
    message,
    false,
  );
};

/**
 * ESLint's stylish lines: the rule after two spaces as printed, or, in a line whose spaces were
 * squeezed to one (as a stored error summary is), a last word that reads as a rule id
 * (`no-unused-vars`, `@typescript-eslint/no-explicit-any`).
 */
const eslint: LineReader = (line) => {
  const m =
    /^\d+:\d+\s+error\s+(.+?)\s{2,}(@?[\w/-]+)$/.exec(line) ??
    /^\d+:\d+ error (.+) ((?:@[\w-]+\/)?(?:[\w-]+\/)?[a-z]+(?:-[a-z0-9]+)+)$/.exec(line);
  return m ? sig(`eslint-${slugify(m[2] as string)}`, `ESLint ${m[2]}`, m[1] as string, false) : undefined;
};

const typescript: LineReader = (line) => {
  const m = /error (TS\d{4}):\s*(.+)/.exec(line);
  return m ? sig(`ts-${(m[1] as string).toLowerCase()}`, `TypeScript ${m[1]}`, m[2] as string, m[1] !== 'TS2307') : undefined;
};

const npm: LineReader = (line) => {
  const m = /npm (?:ERR!|error) code (\w+)/.exec(line);
  return m ? sig(`npm-${(m[1] as string).toLowerCase()}`, `npm ${m[1]}`, line, false) : undefined;
};

const commandNotFound: LineReader = (line) => {
  const m = /(?:^|\s)(\S+): command not found|command not found: (\S+)/.exec(line);
  if (!m) return undefined;
  const program = (m[1] ?? m[2] ?? '').replace(/^.*\//, '');
  return sig(`command-not-found-${slugify(program)}`, `"${program}: command not found"`, line, false);
};

const python: LineReader = (line) => {
  const m =
    /\b((?:ModuleNotFound|Import|Attribute|Key|Type|Value|Name|FileNotFound|Permission|Runtime|Syntax|Assertion)Error):\s*(.*)/.exec(line);
  if (!m) return undefined;
  const module = /No module named '([\w.]+)'/.exec(line)?.[1];
  return sig(
    `python-${slugify(m[1] as string)}${module ? `-${slugify(module)}` : ''}`,
    `Python ${m[1]}`,
    line,
    m[1] === 'SyntaxError' || m[1] === 'AssertionError',
  );
};

const fixedLines: LineReader = (line) => {
  // Vitest's and Jest's " FAIL  src/cart.test.ts > …" before Go's "FAIL\tpkg": both start with FAIL.
  if (/^\s*FAIL\s+\S+\.(?:test|spec)\.[cm]?[jt]sx?\b/.test(line)) return sig('js-test-failure', 'a failing JavaScript test', line, true);
  if (/^--- FAIL: \w+/.test(line) || /^FAIL\s/.test(line) || /\[(build|setup) failed\]/.test(line) || /^panic: /.test(line))
    return sig('go-test-failure', 'a failing Go test', line, true);
  if (/^(?:\S+\.go:\d+(?::\d+)?:\s*)/.test(line) && GO_COMPILE.test(line))
    return sig('go-compile', 'a Go compile error', line.replace(/^\S+\.go:\d+(?::\d+)?:\s*/, ''), true);
  if (/no matches found:/.test(line))
    return {
      ...sig('zsh-no-matches', 'zsh "no matches found" (an unquoted glob, or a URL with ? or *)', line, false),
      remedy: ZSH_GLOB_REMEDY,
    };
  if (/build constraints exclude all Go files/.test(line))
    return sig('go-build-constraints', 'Go "build constraints exclude all Go files" (a build tag is missing)', line, false);
  if (/error: could not apply|CONFLICT \(|Merge conflict|fix conflicts/.test(line))
    return sig('git-conflict', 'a merge conflict', line, true);
  return undefined;
};

/** The last resort: a tool's own "error: …" line, named by its first words. */
const toolMessage: LineReader = (line) => {
  const tool = /^(go|fatal|error|Error|ERROR|panic):\s+(.+)/.exec(line);
  if (!tool) return undefined;
  const message = normaliseMessage(tool[2] as string);
  const words = slugify(message).split('-').slice(0, 6).join('-');
  if (!words || words === 'untitled') return undefined;
  const prefix = tool[1] === 'go' ? 'go' : tool[1] === 'fatal' ? 'git' : 'error';
  return sig(`${prefix}-${words}`, `"${truncate(message, 60)}"`, line, false);
};

/** In order: the first reader that knows a line names it. */
const READERS: readonly LineReader[] = [golangci, eslint, typescript, npm, commandNotFound, python, fixedLines, toolMessage];

/** Every distinct signature in an error text (at most `limit`), most specific first. */
export function errorSignatures(text: string, limit = 3): ErrorSignature[] {
  if (!text || isToolGuardError(text)) return [];
  const found = new Map<string, ErrorSignature>();
  for (const line of errorLines(text)) {
    const s = READERS.reduce<ErrorSignature | undefined>((hit, read) => hit ?? read(line), undefined);
    const prior = s && found.get(s.id);
    // Of several findings of one kind, the shortest message is the clearest example.
    if (s && (!prior || s.headline.length < prior.headline.length)) found.set(s.id, s);
  }
  return [...found.values()].sort((a, b) => Number(a.generic) - Number(b.generic)).slice(0, limit);
}
