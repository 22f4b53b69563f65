/**
 * Migration 18: an MCP service rule names its tools as code in its trigger
 * ("holds (`get_issue`, `create_issue`)"), so a prompt must name a tool by all its words:
 * "create a pr" shared `create_issue`'s verb with the written-out list and got the Linear rule.
 * Rules learned before keep their first wording when seen again, so the list is rewritten
 * here; a trigger the user edited (an 'edit' event) stays as they wrote it.
 */
import type { Migration } from './migrations.js';

const OPEN = "' holds ('";

export const serviceTriggersMigration: Migration = {
  version: 18,
  name: 'service rules name their tools as code',
  up(db) {
    db.exec(`UPDATE instincts
      SET trigger = substr(trigger, 1, instr(trigger, ${OPEN}) + 7) || '\`'
        || replace(substr(trigger, instr(trigger, ${OPEN}) + 8, length(trigger) - instr(trigger, ${OPEN}) - 8), ', ', '\`, \`')
        || '\`)'
      WHERE json_extract(metadata, '$.miner') = 'service'
        AND instr(trigger, ${OPEN}) > 0 AND instr(trigger, '\`') = 0 AND trigger LIKE '%)'
        AND id NOT IN (SELECT instinct_id FROM instinct_events WHERE kind = 'edit' AND instinct_id IS NOT NULL)`);
  },
};
