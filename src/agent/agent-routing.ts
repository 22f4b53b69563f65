/**
 * Which agent answers a message (seed 001): an explicit `@name` first, then the personas'
 * keywords (one point per distinct keyword found as a word or phrase; the highest score wins,
 * a tie goes to default), then default. Pure.
 */
import type { Persona } from './persona.js';
import { escapeRegExp } from '../core/text.js';

export interface AgentRoute {
  agent: string;
  reason: 'mention' | 'keywords' | 'default';
  /** The message without its leading `@name`. */
  message: string;
  /** The keywords that matched, when the keywords decided. */
  matched?: string[];
}

/** Whether `phrase` occurs in `text` as whole words, case-insensitively. Pure. */
export function containsPhrase(text: string, phrase: string): boolean {
  const words = phrase.trim().split(/\s+/).map(escapeRegExp).join('\\s+');
  return words !== '' && new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

const MENTION = /^\s*@([a-z][a-z0-9_-]*)\b[\s,:]*/i;

/** The name a message starts with (`@coder fix it`: "coder"), lower-cased. Pure. */
export const mentionedName = (message: string): string | undefined => MENTION.exec(message)?.[1]?.toLowerCase();

export function routeAgent(message: string, personas: readonly Pick<Persona, 'name' | 'keywords'>[]): AgentRoute {
  const mention = MENTION.exec(message);
  const named = mention && personas.find((p) => p.name === mention[1]?.toLowerCase());
  if (mention && named) return { agent: named.name, reason: 'mention', message: message.slice(mention[0].length).trim() || message };
  let best: { agent: string; matched: string[] } | undefined;
  let tie = false;
  for (const p of personas) {
    const matched = [...new Set(p.keywords)].filter((k) => containsPhrase(message, k));
    if (!matched.length) continue;
    if (!best || matched.length > best.matched.length) {
      best = { agent: p.name, matched };
      tie = false;
    } else if (matched.length === best.matched.length) tie = true;
  }
  if (best && !tie) return { agent: best.agent, reason: 'keywords', message, matched: best.matched };
  return { agent: 'default', reason: 'default', message };
}
