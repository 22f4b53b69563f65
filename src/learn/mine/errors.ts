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

/** Every distinct signature in an error text (at most `limit`), most specific first. */
export function errorSignatures(text: string, limit = 3): ErrorSignature[] {
  if (!text || isToolGuardError(text)) return [];
  const found = new Map<string, ErrorSignature>();
  const add = (s: ErrorSignature): void => {
    const prior = found.get(s.id);
    // Of several findings of one kind, the shortest message is the clearest example.
    if (!prior || s.headline.length < prior.headline.length) found.set(s.id, s);
  };
  const lines = errorLines(text);
  for (const line of lines) {
    const lint = GOLANGCI.exec(line);
    if (lint) {
      const linter = lint[5] as string;
      const message = lint[4] as string;
      if (linter === 'typecheck') {
        add(sig('go-compile', 'a Go compile error', message, true));
        continue;
      }
      const code = /^([GS]A?\d{3,4}|ST\d{4}):/.exec(message)?.[1];
      add(
        sig(
          `golangci-${linter}${code ? `-${code.toLowerCase()}` : ''}`,
          `golangci-lint ${linter}${code ? ` ${code}` : ''}`,
          message,
          false,
        ),
      );
      continue;
    }
    const eslint = /^\d+:\d+\s+error\s+(.+?)\s{2,}(@?[\w/-]+)$/.exec(line);
    if (eslint) {
      add(sig(`eslint-${slugify(eslint[2] as string)}`, `ESLint ${eslint[2]}`, eslint[1] as string, false));
      continue;
    }
    const ts = /error (TS\d{4}):\s*(.+)/.exec(line);
    if (ts) {
      add(sig(`ts-${(ts[1] as string).toLowerCase()}`, `TypeScript ${ts[1]}`, ts[2] as string, ts[1] !== 'TS2307'));
      continue;
    }
    const npm = /npm (?:ERR!|error) code (\w+)/.exec(line);
    if (npm) {
      add(sig(`npm-${(npm[1] as string).toLowerCase()}`, `npm ${npm[1]}`, line, false));
      continue;
    }
    const notFound = /(?:^|\s)(\S+): command not found|command not found: (\S+)/.exec(line);
    if (notFound) {
      const program = (notFound[1] ?? notFound[2] ?? '').replace(/^.*\//, '');
      add(sig(`command-not-found-${slugify(program)}`, `"${program}: command not found"`, line, false));
      continue;
    }
    const py =
      /\b((?:ModuleNotFound|Import|Attribute|Key|Type|Value|Name|FileNotFound|Permission|Runtime|Syntax|Assertion)Error):\s*(.*)/.exec(
        line,
      );
    if (py) {
      const module = /No module named '([\w.]+)'/.exec(line)?.[1];
      add(
        sig(
          `python-${slugify(py[1] as string)}${module ? `-${slugify(module)}` : ''}`,
          `Python ${py[1]}`,
          line,
          py[1] === 'SyntaxError' || py[1] === 'AssertionError',
        ),
      );
      continue;
    }
    if (/^--- FAIL: \w+/.test(line) || /^FAIL\s/.test(line) || /\[(build|setup) failed\]/.test(line) || /^panic: /.test(line)) {
      add(sig('go-test-failure', 'a failing Go test', line, true));
      continue;
    }
    if (/^(?:\S+\.go:\d+(?::\d+)?:\s*)/.test(line) && GO_COMPILE.test(line)) {
      add(sig('go-compile', 'a Go compile error', line.replace(/^\S+\.go:\d+(?::\d+)?:\s*/, ''), true));
      continue;
    }
    if (/no matches found:/.test(line)) {
      add({
        ...sig('zsh-no-matches', 'zsh "no matches found" (an unquoted glob, or a URL with ? or *)', line, false),
        remedy: {
          when: 'when a shell command uses a glob or a URL with `?`',
          action:
            "The Bash tool runs zsh here, which aborts the whole command when a glob matches nothing: quote URLs that contain `?` or `*` (`gh api 'repos/OWNER/REPO/issues?per_page=100'`) and guard globs that may match nothing (`find DIR -name '*.log'`, or `setopt nullglob` first).",
        },
      });
      continue;
    }
    if (/build constraints exclude all Go files/.test(line)) {
      add(sig('go-build-constraints', 'Go "build constraints exclude all Go files" (a build tag is missing)', line, false));
      continue;
    }
    if (/error: could not apply|CONFLICT \(|Merge conflict|fix conflicts/.test(line)) {
      add(sig('git-conflict', 'a merge conflict', line, true));
      continue;
    }
    const tool = /^(go|fatal|error|Error|ERROR|panic):\s+(.+)/.exec(line);
    if (tool) {
      const message = normaliseMessage(tool[2] as string);
      const words = slugify(message).split('-').slice(0, 6).join('-');
      if (words && words !== 'untitled') {
        const prefix = tool[1] === 'go' ? 'go' : tool[1] === 'fatal' ? 'git' : 'error';
        add(sig(`${prefix}-${words}`, `"${truncate(message, 60)}"`, line, false));
      }
    }
  }
  return [...found.values()].sort((a, b) => Number(a.generic) - Number(b.generic)).slice(0, limit);
}
