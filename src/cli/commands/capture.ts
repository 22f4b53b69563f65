/**
 * hook and import-transcripts: getting agent sessions into the store. `hook` is listed here
 * for help only: bin.ts runs it (hooks/) before the command-line framework loads.
 */
import type { Command } from 'commander';
import { HOOK_USAGE } from '../../capture/agents.js';
import { importTranscripts } from '../../app/capture.js';
import { runOperation } from '../run.js';
import { counted } from '../../core/text.js';

/** How many malformed lines are named before the rest are counted. */
const NAMED_MALFORMED = 3;

/** `3 malformed lines skipped: a.jsonl:12, b.jsonl:40 and 1 more`, naming where the first few are. */
export function malformedNote(count: number, at: readonly { file: string; line: number }[]): string {
  const named = at.slice(0, NAMED_MALFORMED).map((m) => `${m.file}:${m.line}`);
  const more = count - named.length;
  return `  ${counted(count, 'malformed line')} skipped${named.length ? `: ${named.join(', ')}` : ''}${named.length && more > 0 ? ` and ${more} more` : ''}`;
}

/**
 * Exit 1 when files named on the command line could not be read (not a transcript, no access):
 * a script that imports them must see it. What a default run finds in ~/.claude/projects only warns.
 */
export const unreadableExit = (paths: readonly string[], imported: { unreadable_files: readonly unknown[] }): number =>
  paths.length > 0 && imported.unreadable_files.length > 0 ? 1 : 0;

export function registerCaptureCommands(program: Command): void {
  program
    .command('hook')
    .description("Run one agent hook: reads the hook JSON on stdin, prints the agent's expected output, always exits 0")
    .argument('<event>', "observe | start | prompt | recall | stop, or the agent's event name (PostToolUse, SessionStart, ...)")
    .option('--agent <agent>', 'claude-code | codex | gemini | cursor (default: guessed from the payload)')
    .addHelpText('after', `\n${HOOK_USAGE}`);

  program
    .command('import-transcripts')
    .description('Replay Claude Code transcripts (default: ~/.claude/projects/*/*.jsonl) into observations, prompts and session summaries')
    .argument('[paths...]', 'transcript files or directories (searched for *.jsonl)')
    .option('--force', 'read files again even when already imported unchanged (nothing is added twice)')
    .option('--no-progress', 'no progress output on stderr')
    .action(async (paths: string[], o: { force?: boolean; progress?: boolean }, cmd: Command) => {
      await runOperation(
        cmd,
        importTranscripts,
        { paths, force: !!o.force },
        (r) => [
          `Imported ${r.imported_files} of ${counted(r.files, 'transcript')} (${r.unchanged_files} unchanged since the last import${r.empty_files ? `, ${r.empty_files} with no session in them` : ''}).`,
          `  ${r.observations_new} new observations (${r.observations_existing} already stored), ${r.noise} noisy tool calls filtered`,
          `  ${r.tool_calls} tool calls, ${r.prompts} prompts, ${r.sessions} sessions (${r.new_sessions} new)`,
          ...(r.malformed_lines ? [malformedNote(r.malformed_lines, r.malformed_at)] : []),
          ...(r.unfinished_tool_calls ? [`  ${counted(r.unfinished_tool_calls, 'tool call')} without a result skipped`] : []),
          ...r.unreadable_files.map((u) => `  could not read ${u.file}: ${u.reason}`),
          ...(r.files === 0 ? ['  No transcripts found. Claude Code keeps them in ~/.claude/projects/<project>/<session>.jsonl.'] : []),
        ],
        { names: { paths: '[paths...]' }, progress: o.progress !== false, exitCode: (r) => unreadableExit(paths, r) },
      );
    });
}
