/**
 * hook and import-transcripts: getting agent sessions into the store. `hook` is listed here
 * for help only: bin.ts runs it (hooks/) before the command-line framework loads.
 */
import type { Command } from 'commander';
import { homedir } from 'node:os';
import { UsageError } from '../../core/errors.js';
import { HOOK_USAGE } from '../../capture/agents.js';
import { defaultTranscriptFiles, transcriptFiles } from '../../capture/transcript/files.js';
import { type ImportProgress, importTranscripts } from '../../capture/transcript/import.js';
import { renderIdentity } from '../../view/render.js';
import { withCommandStore } from '../context.js';
import { emit } from '../output.js';

/** A progress bar on a terminal, else a plain line every few seconds; always on stderr. */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now): (p: ImportProgress) => void {
  let last = 0;
  return (p) => {
    const total = Math.max(1, p.filesTotal);
    const finished = p.filesDone >= p.filesTotal;
    if (stream.isTTY) {
      const width = 24;
      const filled = Math.round((p.filesDone / total) * width);
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.filesDone}/${p.filesTotal} files, ${p.observations} new observations`,
      );
      if (finished) stream.write('\n');
      return;
    }
    if (finished || now() - last >= 5_000) {
      last = now();
      stream.write(`import-transcripts: ${p.filesDone}/${p.filesTotal} files, ${p.observations} new observations\n`);
    }
  };
}

/** The transcripts named on the command line, or every one under ~/.claude/projects; a missing path is a usage error. */
export function transcriptsToImport(paths: readonly string[]): string[] {
  if (paths.length === 0) return defaultTranscriptFiles(process.env.HOME ?? homedir());
  const found = transcriptFiles(paths);
  if (found.missing.length)
    throw new UsageError(
      `No such file or directory: ${found.missing.join(', ')}`,
      'Give transcript files (*.jsonl) or directories that hold them.',
    );
  return found.files;
}

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
      const files = transcriptsToImport(paths);
      await withCommandStore(cmd, async (store, g) => {
        const result = await importTranscripts(store, files, {
          ...(o.force ? { force: true } : {}),
          ...(o.progress !== false && !g.json ? { onProgress: progressReporter() } : {}),
        });
        renderIdentity(store);
        emit(g, result, (r) => [
          `Imported ${r.imported_files} of ${r.files} transcript${r.files === 1 ? '' : 's'} (${r.unchanged_files} unchanged since the last import).`,
          `  ${r.observations_new} new observations (${r.observations_existing} already stored), ${r.noise} noisy tool calls filtered`,
          `  ${r.tool_calls} tool calls, ${r.prompts} prompts, ${r.sessions} sessions (${r.new_sessions} new)`,
          ...(r.malformed_lines ? [`  ${r.malformed_lines} malformed line${r.malformed_lines === 1 ? '' : 's'} skipped`] : []),
          ...(r.unfinished_tool_calls
            ? [`  ${r.unfinished_tool_calls} tool call${r.unfinished_tool_calls === 1 ? '' : 's'} without a result skipped`]
            : []),
          ...r.unreadable_files.map((u) => `  could not read ${u.file}: ${u.reason}`),
          ...(r.files === 0 ? ['  No transcripts found. Claude Code keeps them in ~/.claude/projects/<project>/<session>.jsonl.'] : []),
        ]);
      });
    });
}
