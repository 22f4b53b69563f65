/** The markers around the block Homunculus writes into a rule file (CLAUDE.md, AGENTS.md, ...). */
export const MARKER_START = '<!-- instinct:start -->';
export const MARKER_END = '<!-- instinct:end -->';

/** A rule file's own words: the text with every learned block taken out. */
export const outsideLearnedBlock = (text: string): string => text.replace(new RegExp(`${MARKER_START}[\\s\\S]*?${MARKER_END}`, 'g'), '');

/** The keys of the instincts a learned block holds (each bullet names them in a comment: `<!-- `pref:x` (12) -->`). Pure. */
export function learnedKeys(text: string): string[] {
  const keys = new Set<string>();
  for (const block of text.match(new RegExp(`${MARKER_START}[\\s\\S]*?${MARKER_END}`, 'g')) ?? []) {
    for (const comment of block.match(/<!--[\s\S]*?-->/g) ?? []) {
      for (const m of comment.matchAll(/`([a-z]+:[^`\s]+)`/g)) keys.add(m[1] as string);
    }
  }
  return [...keys];
}
