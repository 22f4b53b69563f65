/** Markdown with YAML frontmatter: the format of every rendered file. */
import YAML from 'yaml';

export function renderFrontmatter(data: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
  const yaml = YAML.stringify(clean, { lineWidth: 0 }).trimEnd();
  return `---\n${yaml}\n---\n\n${body.trimEnd()}\n`;
}

interface ParsedMarkdown {
  data: Record<string, unknown>;
  body: string;
}

/** Throws with a readable message when the frontmatter is missing or not a YAML mapping. */
export function parseFrontmatter(text: string): ParsedMarkdown {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)([\s\S]*)$/.exec(normalised);
  if (!match) throw new Error('no YAML frontmatter (the file must start with a --- block)');
  let data: unknown;
  try {
    data = YAML.parse(match[1] ?? '');
  } catch (err) {
    throw new Error(`invalid YAML frontmatter: ${(err as Error).message.split('\n')[0]}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('frontmatter is not a key: value mapping');
  return { data: data as Record<string, unknown>, body: (match[2] ?? '').trim() };
}
