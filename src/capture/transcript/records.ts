/** What a transcript's user records hold: a typed prompt (or not), and the text of a tool result. */
import { type Obj, isObj } from '../../core/fields.js';

/** Slash commands handled by the client itself: they never reach the model or UserPromptSubmit. */
// prettier-ignore
const LOCAL_COMMANDS = new Set([
  'exit', 'quit', 'clear', 'ide', 'compact', 'release-notes', 'remote-env', 'config', 'help', 'model', 'cost', 'status', 'login', 'logout',
  'resume', 'memory', 'permissions', 'doctor', 'mcp', 'agents', 'hooks', 'vim', 'theme', 'terminal-setup', 'bug', 'export', 'add-dir',
  'context', 'usage', 'plugin', 'rewind', 'todos', 'statusline', 'output-style', 'privacy-settings', 'upgrade', 'fast',
]);

/**
 * The text the user typed, from a user record's content, or undefined when the record is not
 * a typed prompt (tool results, meta records, command output, compaction summaries).
 */
export function typedPrompt(record: Obj): string | undefined {
  if (record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true) return undefined;
  const message = isObj(record.message) ? record.message : {};
  const content = message.content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    const blocks = content.filter(isObj);
    if (blocks.some((b) => b.type === 'tool_result')) return undefined;
    text = blocks
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .filter((t) => !t.startsWith('<ide_') && !t.startsWith('[Request interrupted'))
      .join('\n');
  }
  text = text?.trim();
  if (!text) return undefined;
  if (/^<(local-command-|bash-(input|stdout|stderr))/.test(text) || text.startsWith('[Request interrupted')) return undefined;
  const name = /<command-name>\/?([^<]+)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name !== undefined) {
    if (LOCAL_COMMANDS.has(name)) return undefined;
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim();
    return `/${name}${args ? ` ${args}` : ''}`;
  }
  return text;
}

/** A tool_result block's text, whether the content is a string or a list of text blocks. */
export function resultText(block: Obj): string {
  const c = block.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .filter(isObj)
      .map((b) => (typeof b.text === 'string' ? b.text : ''))
      .join('\n');
  return '';
}
