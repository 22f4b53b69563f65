/**
 * Services the project works through: an MCP server whose tools the agent called in several
 * sessions (an issue tracker, a docs index), with the argument values that recur (the team,
 * the project a new issue goes to). Editor bridges are left out: they serve every project.
 * Pure functions, no I/O.
 */
import { slugify } from '../../core/text.js';
import type { Obs } from '../observation.js';
import { type Candidate, backtick, seenIn, tallyExamples } from './candidate.js';

/** MCP servers that are the editor's, not the project's. */
const EDITOR = /^(?:ide|vscode|jetbrains|cursor)$/i;
/** Short string arguments that name a place (team, project, label), not content or an id. */
const SETTING =
  /"(team|project|projectId|label|labels|state|status|priority|repo|owner|space|channel|assignee)":\s*(?:\[\s*)?("[^"]{1,40}"|\d)/g;

export interface ServiceCall {
  server: string;
  tool: string;
  settings: string[];
}

/** The server, tool and setting arguments of an MCP call, or undefined for any other tool. */
export function serviceCall(tool: string, input: string): ServiceCall | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(tool);
  if (!m || EDITOR.test(m[1] as string)) return undefined;
  const settings = [...input.matchAll(SETTING)].map((s) => `${s[1] as string}=${(s[2] as string).replace(/"/g, '')}`);
  return { server: (m[1] as string).replace(/^plugin_[\w-]+?_/, ''), tool: m[2] as string, settings: [...new Set(settings)] };
}

const actionFor = (server: string, tools: readonly string[], settings: readonly string[]): string =>
  `Use the ${server} MCP tools (${tools.map((t) => `\`${t}\``).join(', ')})${settings.length ? ` with ${settings.map((s) => `\`${s}\``).join(', ')}` : ''}: that is how this project's sessions did it.`;

/**
 * The tools are code: a prompt names `create_issue` by both its words, so "create a pr" or "fix
 * issue 1" is not about Linear. As many whole names as fit in 80 characters.
 */
function triggerFor(where: string, server: string, tools: readonly string[]): string {
  const spans = tools.map(backtick);
  let shown = 1;
  while (shown < spans.length && spans.slice(0, shown + 1).join(', ').length <= 80) shown++;
  const list = spans.slice(0, shown).join(', ');
  return `when the work in ${where} needs what ${server} holds (${shown < spans.length ? `${list}, …` : list})`;
}

/** One candidate per MCP server the session used. */
export function mineServices(observations: readonly Obs[]): Candidate[] {
  const byServer = new Map<string, { o: Obs; items: string[] }>();
  for (const o of observations) {
    if (o.event !== 'tool' || o.outcome !== 'ok') continue;
    const call = serviceCall(o.tool, o.input);
    if (!call) continue;
    const entry = byServer.get(call.server) ?? { o, items: [] };
    for (const item of [`tool:${call.tool}`, ...call.settings.map((s) => `arg:${s}`)])
      if (!entry.items.includes(item)) entry.items.push(item);
    byServer.set(call.server, { o, items: entry.items });
  }
  return [...byServer].map(([server, { o, items }]) => {
    const where = o.projectName || 'this project';
    const tools = items.filter((i) => i.startsWith('tool:')).map((i) => i.slice(5));
    const settings = items.filter((i) => i.startsWith('arg:')).map((i) => i.slice(4));
    return {
      key: `pref:${slugify(where)}/service=${slugify(server)}`,
      category: 'preference',
      domain: 'tooling',
      title: `${where} works through ${server}`,
      trigger: triggerFor(where, server, tools),
      action: actionFor(server, tools.slice(0, 4), settings.slice(0, 4)),
      explain: `Called ${tools.map((t) => `${server}.${t}`).join(', ')}.`,
      evidence: [items.join('; ')],
      subjects: [server, ...tools],
      miner: 'service',
      notable: false,
      tags: ['tooling', 'mcp'],
      ...seenIn(o),
      facts: { server },
    };
  });
}

/** The instinct's action from every session that backs it: tools by use, settings seen twice or more. */
export function withServices(c: Candidate, examples: readonly string[]): Candidate {
  const server = c.facts?.server;
  if (c.miner !== 'service' || typeof server !== 'string') return c;
  const ranked = tallyExamples(examples);
  const tools = ranked.filter(([i]) => i.startsWith('tool:')).map(([i]) => i.slice(5));
  const settings = ranked.filter(([i, n]) => i.startsWith('arg:') && n >= 2).map(([i]) => i.slice(4));
  if (tools.length === 0) return c;
  return {
    ...c,
    trigger: triggerFor(c.projectName || 'this project', server, tools),
    action: actionFor(server, tools.slice(0, 4), settings.slice(0, 4)),
  };
}
