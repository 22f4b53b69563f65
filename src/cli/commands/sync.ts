/** `homunculus sync`: the main job. Import what the agent already did, learn from it, bring the view up to date. */
import type { Command } from 'commander';
import { sync } from '../../app/capture.js';
import { counted, truncate } from '../../core/text.js';
import { runOperation } from '../run.js';
import { malformedNote, unreadableExit } from './capture.js';
import type { Agent } from '../../capture/agents.js';

/** Instincts created during the run that no longer stand at its end (merged into another, taken back). */
const newTakenBack = (learned: { created: readonly string[]; new_rules: readonly unknown[] }): string => {
  const gone = learned.created.length - learned.new_rules.length;
  return gone > 0 ? ` (${gone} more merged into others or taken back during the run)` : '';
};

const AGENT_NAMES: Readonly<Record<Agent, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
};

/** What the files said beyond what learning found again: the user's words and "wrong" marks. */
const restoredDetail = (r: { reworded: number; marked_wrong: number }): string => {
  const parts = [
    ...(r.reworded ? [`${counted(r.reworded, 'instinct')} in your words`] : []),
    ...(r.marked_wrong ? [`${r.marked_wrong} marked wrong again`] : []),
  ];
  return parts.length ? `: ${parts.join(', ')}` : '';
};

export function registerSyncCommands(program: Command): void {
  program
    .command('sync')
    .description(
      'The main job: import Claude Code transcripts (default ~/.claude/projects), learn from every pending observation, consolidate, render the readable view and embed what is new for search',
    )
    .argument('[paths...]', 'transcript files or directories instead of ~/.claude/projects')
    .option('--no-import', 'skip the transcript import; only learn from what the hooks recorded')
    .option('--no-llm', 'use only the deterministic miners, even when an LLM is configured')
    .option('--no-embed', 'skip embedding the new sessions, episodes and instincts (queries repair up to 20 at a time)')
    .option('--no-progress', 'no progress output on stderr')
    .action(async (paths: string[], o: { import?: boolean; llm?: boolean; embed?: boolean; progress?: boolean }, cmd: Command) => {
      // Each transcript file and each session is its own transaction: an interruption loses nothing already done.
      process.once('SIGINT', () => {
        process.stderr.write(
          '\nhomunculus: sync interrupted; what was imported and learned so far is kept (`homunculus list` shows the instincts, `homunculus status` the counts). Run `homunculus sync` again to continue.\n',
        );
        process.exit(130);
      });
      const input = { paths, import: o.import !== false, llm: o.llm !== false, embed: o.embed !== false };
      await runOperation(
        cmd,
        sync,
        input,
        (s) => [
          ...(s.restored?.instincts
            ? [
                `Brought back ${counted(s.restored.instincts, 'instinct')} from their files under instincts/ (an earlier database's)${restoredDetail(s.restored)}.`,
              ]
            : []),
          `Imported ${s.imported.imported_files} of ${counted(s.imported.files, 'transcript')} (${s.imported.unchanged_files} unchanged since the last import${s.imported.empty_files ? `, ${s.imported.empty_files} with no session in them` : ''}): ${counted(s.imported.sessions, 'new session')}, ${counted(s.imported.observations, 'new observation')}.`,
          ...(s.imported.malformed_lines ? [malformedNote(s.imported.malformed_lines, s.imported.malformed_at)] : []),
          ...s.imported.unreadable_files.map((u) => `  could not read ${u.file}: ${u.reason}`),
          ...(s.imported.files === 0 && paths.length === 0
            ? ['  No transcripts found in ~/.claude/projects (Claude Code keeps them there, as <project>/<session>.jsonl).']
            : []),
          s.learned.status === 'locked'
            ? 'A learning run in the background holds the lock; it is processing these observations.'
            : `Learned from ${counted(s.learned.observations, 'observation')} in ${counted(s.learned.sessions, 'session')}: ${counted(s.learned.new_rules.length, 'new instinct')}${newTakenBack(s.learned)}, ${s.learned.reinforced} reinforced, ${counted(s.learned.episodes, 'episode')}.`,
          ...s.learned.new_rules.map((r) => `  + ${truncate(r.rule, 200)}`),
          ...s.learned.demoted.map((d) => `  - taken back: "${truncate(d.rule, 160)}": ${d.reason}`),
          ...(s.learned.by_meaning?.merged
            ? [`Counted ${s.learned.by_meaning.merged} request(s) in other words with the request they mean.`]
            : []),
          ...(s.learned.faded.decayed || s.learned.faded.deleted
            ? [
                `Faded this run: ${s.learned.faded.decayed} instinct(s) not seen for a week or more score lower (\`homunculus status\` lists every faded one, those already at the floor too); they still apply when they match, and a new sighting restores them${s.learned.faded.deleted ? `; ${s.learned.faded.deleted} fell below the floor and were removed` : ''}.`,
              ]
            : []),
          ...(s.embedded ? [`Embedded ${s.embedded} new document(s) for search.`] : []),
          `The store holds ${counted(s.instincts, 'instinct')} and ${counted(s.convictions, 'conviction')}; files in ${s.home}.`,
          s.capturing.length
            ? `Next: \`homunculus status\` to review; new ${s.capturing.map((a) => AGENT_NAMES[a]).join(', ')} sessions are learned from as they end.`
            : 'Next: `homunculus status` to review, `homunculus init --claude` (or --codex, --gemini, --cursor) to keep learning from every session.',
        ],
        { names: { paths: '[paths...]' }, progress: o.progress !== false, exitCode: (s) => unreadableExit(paths, s.imported) },
      );
    });
}
