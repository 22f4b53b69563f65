/** The markers around the block Homunculus writes into a rule file (CLAUDE.md, AGENTS.md, ...). */
export const MARKER_START = '<!-- instinct:start -->';
export const MARKER_END = '<!-- instinct:end -->';

/** A rule file's own words: the text with every learned block taken out. */
export const outsideLearnedBlock = (text: string): string => text.replace(new RegExp(`${MARKER_START}[\\s\\S]*?${MARKER_END}`, 'g'), '');
