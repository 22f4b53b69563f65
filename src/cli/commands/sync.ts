/** `homunculus sync`: the main job. Import what the agent already did, learn from it, bring the view up to date. */
import type { Command } from 'commander';
import { sync } from '../../app/capture.js';
import { truncate } from '../../core/text.js';
import { runOperation } from '../run.js';

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
          '\nhomunculus: sync interrupted; what was imported and learned so far is kept. Run `homunculus sync` again to continue.\n',
        );
        process.exit(130);
      });
      const input = { paths, import: o.import !== false, llm: o.llm !== false, embed: o.embed !== false };
      await runOperation(
        cmd,
        sync,
        input,
        (s) => [
          `Imported ${s.imported.files} transcript file(s): ${s.imported.sessions} new session(s), ${s.imported.observations} new observation(s).`,
          s.learned.status === 'locked'
            ? 'A learning run in the background holds the lock; it is processing these observations.'
            : `Learned from ${s.learned.observations} observation(s) in ${s.learned.sessions} session(s): ${s.learned.created.length} new instinct(s), ${s.learned.reinforced} reinforced, ${s.learned.episodes} episode(s).`,
          ...s.learned.new_rules.map((r) => `  + ${truncate(r.rule, 200)}`),
          ...s.learned.demoted.map((d) => `  - taken back: "${truncate(d.rule, 160)}": ${d.reason}`),
          ...(s.learned.by_meaning?.merged
            ? [`Counted ${s.learned.by_meaning.merged} request(s) in other words with the request they mean.`]
            : []),
          ...(s.learned.faded.decayed || s.learned.faded.deleted
            ? [
                `Faded: ${s.learned.faded.decayed} instinct(s) not seen for a week or more score lower; they still apply when they match, and a new sighting restores them${s.learned.faded.deleted ? `; ${s.learned.faded.deleted} fell below the floor and were removed` : ''}.`,
              ]
            : []),
          ...(s.embedded ? [`Embedded ${s.embedded} new document(s) for search.`] : []),
          `The store holds ${s.instincts} instinct(s) and ${s.convictions} conviction(s); files in ${s.home}.`,
          s.claude_code_hooks
            ? 'Next: `homunculus status` to review; new Claude Code sessions are learned from as they end.'
            : 'Next: `homunculus status` to review, `homunculus init --claude` to keep learning from every session.',
        ],
        { names: { paths: '[paths...]' }, progress: o.progress !== false },
      );
    });
}
