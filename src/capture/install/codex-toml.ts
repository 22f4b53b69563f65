/** Codex keeps its MCP servers and feature flags in config.toml: edited as text, between markers. */

const BEGIN = '# homunculus:begin';
const END = '# homunculus:end';
const MARK = '# added by homunculus';

const tomlString = (s: string): string => JSON.stringify(s);

/** Codex's config.toml with our MCP server and the hooks feature flag (text edits between markers). */
export function mergeCodexToml(text: string, prefixWords: readonly string[]): string {
  const clean = removeCodexToml(text);
  const [command, ...args] = prefixWords;
  const block: string[] = [];
  let body = clean;
  if (!/^\s*codex_hooks\s*=/m.test(body)) {
    if (/^\s*\[features\]\s*$/m.test(body)) body = body.replace(/^(\s*\[features\]\s*)$/m, `$1\ncodex_hooks = true ${MARK}`);
    else block.push('[features]', 'codex_hooks = true', '');
  }
  if (!/^\s*\[mcp_servers\.homunculus\]/m.test(body)) {
    block.push(
      '[mcp_servers.homunculus]',
      `command = ${tomlString(command ?? 'node')}`,
      `args = [${[...args, 'mcp'].map(tomlString).join(', ')}]`,
    );
  }
  if (block.length === 0) return body;
  const sep = body === '' || body.endsWith('\n') ? '' : '\n';
  return `${body}${sep}${BEGIN}\n${block.join('\n').replace(/\n+$/, '')}\n${END}\n`;
}

export function removeCodexToml(text: string): string {
  const start = text.indexOf(BEGIN);
  let out = text;
  if (start >= 0) {
    const end = text.indexOf(END, start);
    const stop = end >= 0 ? end + END.length + (text[end + END.length] === '\n' ? 1 : 0) : text.length;
    out = text.slice(0, start) + text.slice(stop);
  }
  return out
    .split('\n')
    .filter((l) => !l.endsWith(MARK))
    .join('\n');
}
