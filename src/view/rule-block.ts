/**
 * The learned block of a rule file: written between markers, idempotently, with everything
 * around it kept. The block carries a digest of what Homunculus wrote, so edits made inside it
 * by hand are noticed and never replaced without being asked (`force`).
 */
import { accessSync, constants, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { Buffer, isUtf8 } from 'node:buffer';
import { basename, dirname } from 'node:path';
import { agentRuleFiles, keysIn } from '../context/exported.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs.js';
import { sha256 } from '../core/ids.js';
import { MARKER_END, MARKER_START, learnedKeys, outsideLearnedBlock } from '../core/rule-markers.js';
import { RULE_FILES, takesRuleBlock } from './rules.js';

interface InjectResult {
  target: string;
  rule_count: number;
  /** Bullets the block holds: rules that say the same for other code share one. */
  lines: number;
  changed: boolean;
  /** With no rule left to write: the block was taken out of the file. */
  removed?: boolean;
  /** With no rule left to write: why the block stays ('edited' by hand, or holding rules this store never learned). */
  kept?: 'edited' | 'unknown';
}

interface InjectOptions {
  force?: boolean;
  /** Whether this store learned a key (it may have been taken back since); a block of keys it never learned is not its to empty. */
  known?: (key: string) => boolean;
}

/** A file with words of its own has its title, and a file of another name is not AGENTS.md: the format's "# AGENTS.md" goes. */
function withoutTitle(block: string, current: string, target: string): string {
  return outsideLearnedBlock(current).trim() || basename(target) !== 'AGENTS.md' ? block.replace(/^# AGENTS\.md\n+/, '') : block;
}

/** Why the file may not be written (EACCES, or EPERM for an immutable one), or undefined when it may. */
function writeRefusal(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'EACCES';
  }
}

/** The file's state on disk stops the write: not a wrong argument (exit 2) but a thing to fix there (exit 1). */
const cannotWrite = (code: string, message: string, hint: string): HomunculusError => new HomunculusError(code, message, { hint });

/**
 * How a rule file's bytes are held as text: UTF-8, or, for bytes that are not (a Latin-1 file),
 * one character per byte, so every byte outside the block is written back as it was.
 */
type Encoding = 'utf8' | 'latin1';

interface Current {
  text: string;
  encoding: Encoding;
}

/** `text` (as written, UTF-8) in the file's encoding: in a Latin-1 file, one character per UTF-8 byte. */
const asFile = (text: string, encoding: Encoding): string => (encoding === 'utf8' ? text : Buffer.from(text, 'utf8').toString('latin1'));
/** The reverse of asFile: part of the file read back as the text Homunculus wrote. */
const asWritten = (text: string, encoding: Encoding): string => (encoding === 'utf8' ? text : Buffer.from(text, 'latin1').toString('utf8'));

/** The rule file's text ('' when it is not there yet), or an error saying why it may not be written and the fix. */
function currentText(target: string): Current {
  if (!existsSync(dirname(target)))
    throw cannotWrite(
      'no_folder',
      `The folder of ${target} does not exist.`,
      `Create it first (mkdir -p "${dirname(target)}"), or name a rule file in a folder that exists.`,
    );
  if (!existsSync(target)) return { text: '', encoding: 'utf8' };
  const st = statSync(target);
  if (!st.isFile()) throw cannotWrite('not_a_file', `${target} is not a file.`, 'Name a file for the block, or move what is there aside.');
  const refusal = writeRefusal(target);
  // Immutable (chattr +i): chmod changes nothing, and not even root may write it.
  if (refusal === 'EPERM')
    throw cannotWrite(
      'immutable',
      `${target} is immutable (EPERM): no one may write it, root included, and chmod does not change that.`,
      `Lift the flag first (sudo chattr -i "${target}"; on macOS chflags nouchg "${target}"), or leave the file as it is.`,
    );
  // A file made read-only says "leave me alone", even to root, who could write it anyway.
  if ((st.mode & 0o222) === 0 || refusal)
    throw cannotWrite('read_only', `${target} is read-only.`, `Make it writable (chmod u+w "${target}") to let the block be updated.`);
  const bytes = readFileSync(target);
  return isUtf8(bytes) ? { text: bytes.toString('utf8'), encoding: 'utf8' } : { text: bytes.toString('latin1'), encoding: 'latin1' };
}

/** The block's last line: what wrote it, a digest of the rest, and where rules are changed. */
const digestLine = (digest: string): string =>
  `<!-- written by homunculus (${digest}); edits here are replaced: change a rule with \`homunculus edit\` or \`homunculus feedback\` -->`;
const DIGEST = /^<!-- written by homunculus \(([0-9a-f]{12})\).*-->\r?$/m;
const digestOf = (body: string): string => sha256(body.replace(/\r\n/g, '\n').trim()).slice(0, 12);

/** Whether the text between the markers differs from what Homunculus wrote there (a block without a digest cannot tell: no). */
export function editedByHand(inner: string): boolean {
  const written = DIGEST.exec(inner)?.[1];
  return written !== undefined && digestOf(inner.replace(DIGEST, '')) !== written;
}

/** The marked block holding `body`, its digest line last. */
export const markedBlock = (body: string): string => `${MARKER_START}\n${body}\n${digestLine(digestOf(body))}\n${MARKER_END}`;

/** A usage error (exit 2), unlike the file's other states: the flag `--force` is what the command lacks to go ahead. */
function refuseEdited(target: string): never {
  throw new UsageError(
    `The learned block of ${target} was edited by hand since Homunculus wrote it; writing it again would lose those edits.`,
    `Move lines of your own outside ${MARKER_START} … ${MARKER_END}; change a rule with \`homunculus edit <key>\` or drop it with \`homunculus feedback <key> wrong\`. Then run again, or replace the block as it stands with \`homunculus export-rules --inject FILE --force\`.`,
  );
}

/**
 * Replaces only the marked block of `target`, creating the file and markers when missing.
 * A block edited by hand is refused unless `force`.
 */
/** A new Cursor rule file (.mdc) is applied to every request only when its front matter says so. */
const CURSOR_FRONT_MATTER = (target: string): string =>
  target.toLowerCase().endsWith('.mdc') ? '---\ndescription: Rules Homunculus learned from your sessions\nalwaysApply: true\n---\n\n' : '';

/** A file written with CRLF throughout stays so, the block included; one that mixes keeps its lines as they are. */
const lineEndsOf = (current: string, next: string): string =>
  current.includes('\r\n') && !/(^|[^\r])\n/.test(current) ? next.replace(/\r?\n/g, '\r\n') : next;

/** The text around the block, joined as if it had never been there. */
function withoutBlock(current: string, start: number, end: number): string {
  const before = current.slice(0, start).trimEnd();
  const after = current.slice(end + MARKER_END.length).trimStart();
  const next = [before, after].filter(Boolean).join('\n\n');
  return next ? `${next}\n` : '';
}

/**
 * No rule left to write: a block this store wrote, of rules it learned and has taken back (marked wrong,
 * forgotten), is taken out, or the agent keeps reading them. A block edited by hand, or of rules learned
 * elsewhere (a teammate's committed file, a fresh store), stays unless `force`.
 */
function removeBlock(target: string, options: InjectOptions): InjectResult {
  const unchanged = { target, rule_count: 0, lines: 0, changed: false };
  if (!existsSync(target)) return unchanged;
  const { text: current, encoding } = currentText(target);
  const start = current.indexOf(MARKER_START);
  const end = current.indexOf(MARKER_END, start + MARKER_START.length);
  if (start < 0 || end < 0) return unchanged;
  const inner = asWritten(current.slice(start + MARKER_START.length, end), encoding);
  if (!options.force && editedByHand(inner)) return { ...unchanged, kept: 'edited' };
  const keys = learnedKeys(asWritten(current.slice(start, end + MARKER_END.length), encoding));
  if (!options.force && (keys.length === 0 || !keys.every((k) => options.known?.(k)))) return { ...unchanged, kept: 'unknown' };
  writeFileAtomic(target, Buffer.from(lineEndsOf(current, withoutBlock(current, start, end)), encoding));
  return { ...unchanged, changed: true, removed: true };
}

export function injectBlock(target: string, block: string, ruleCount: number, options: InjectOptions = {}): InjectResult {
  if (!block.trim()) return removeBlock(target, options);
  const { text: current, encoding } = currentText(target);
  // Spliced in the file's own encoding: the bytes around the block are written back as they were.
  const section = asFile(markedBlock(withoutTitle(block, current, target).trimEnd()), encoding);
  const start = current.indexOf(MARKER_START);
  const end = current.indexOf(MARKER_END, start + MARKER_START.length);
  let next: string;
  if (start >= 0 && end >= 0) {
    if (!options.force && editedByHand(asWritten(current.slice(start + MARKER_START.length, end), encoding))) refuseEdited(target);
    next = current.slice(0, start) + section + current.slice(end + MARKER_END.length);
  } else if (start >= 0 || (end >= 0 && start < 0)) {
    throw cannotWrite(
      'rule_block',
      `${target} has an unmatched instinct marker.`,
      `Restore both ${MARKER_START} and ${MARKER_END}, or remove the stray one.`,
    );
  } else {
    next = current ? `${current.trimEnd()}\n\n${section}\n` : `${CURSOR_FRONT_MATTER(target)}${section}\n`;
  }
  // A second block (pasted, or merged from a branch) would give every rule twice: one block is kept up to date.
  if (next.indexOf(MARKER_START, next.indexOf(MARKER_END) + MARKER_END.length) >= 0)
    throw cannotWrite(
      'rule_block',
      `${target} has more than one instinct block.`,
      `Delete all but one ${MARKER_START} ... ${MARKER_END} block.`,
    );
  next = lineEndsOf(current, next);
  const lines = (block.match(/^- /gm) ?? []).length;
  if (next === current) return { target, rule_count: ruleCount, lines, changed: false };
  writeFileAtomic(target, Buffer.from(next, encoding));
  return { target, rule_count: ruleCount, lines, changed: true };
}

/** The files directly in `root` that `export-rules --inject` may write (.windsurfrules, SKILL.md, a notes.md), by name. */
function injectableIn(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isFile() && takesRuleBlock(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The files of `root` whose learned block holds `key` (relative paths): the rule files the agents
 * load, then every other file of the root `export-rules --inject` can write.
 */
export function filesHolding(root: string, key: string): string[] {
  if (!root) return [];
  const files = new Set([...agentRuleFiles(root), ...Object.keys(RULE_FILES), ...injectableIn(root)]);
  return [...files].filter((file) => keysIn(root, file).includes(key));
}
