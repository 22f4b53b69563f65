/**
 * The quality gate, applied to every candidate before it is counted: would it change
 * what a fresh session does? Is it actionable, non-obvious, specific (does it name a tool,
 * file, command or error)? Tool counts, Read -> Edit, the standard git flow and generic
 * validation never pass. Pure; each rule says why it rejects.
 */
import { isEcosystemDefault, isGitFlow, isProjectSpecific, isValidation } from './mine/commands.js';
import type { Candidate } from './mine/candidate.js';
import { isObviousPair } from './mine/coedits.js';
import { CORE_TOOLS, concreteTerms } from './mine/terms.js';

interface GateResult {
  pass: boolean;
  reasons: string[];
}

type Rule = (c: Candidate) => string | undefined;

const steps = (c: Candidate): string[] => (Array.isArray(c.facts?.steps) ? (c.facts.steps as string[]) : []);
const textOf = (c: Candidate): string => `${c.key} ${c.title} ${c.trigger} ${c.action}`;

const CORE_TOOL_WORDS = [...CORE_TOOLS].map((t) => t.toLowerCase());
const GENERIC_ADVICE =
  /^(?:always\s+)?(?:(?:run|write|add|update)\s+(?:the\s+|some\s+|more\s+)?tests?\b|read (?:the )?files? (?:first|before)|check (?:the )?(?:git )?status|commit (?:your |the )?changes|make sure (?:it|everything) works|be careful|double[- ]check|follow best practices|keep (?:the )?code clean|write clean code)/i;
const ACTION_VERB =
  /\b(use|run|rerun|call|quote|guard|offer|edit|update|add|remove|avoid|never|always|prefer|keep|fix|set|pass|wrap|check|extract|rename|move|put|return|handle|write|read|ask|apply|do not|don't|install|export|import|declare|replace|split|merge|create|delete|skip|utilise|lance|évite|garde|ajoute)\b/i;

/** Keys of learned instincts: a chain made of them restates two instincts in internal words. */
const INSTINCT_KEY = /^(?:seq|pref|fix|combo):/;

/** Why a chain of steps may not become an instinct, if it may not: its steps must be commands, never instincts. */
export function chainProblem(steps: readonly string[]): string | undefined {
  return steps.some((s) => INSTINCT_KEY.test(s)) ? 'a chain of instincts (no chain of chains): it only restates them' : undefined;
}

export const GATE_RULES: readonly { name: string; rule: Rule }[] = [
  { name: 'no chain of instincts', rule: (c) => chainProblem(steps(c)) },
  {
    name: 'specific',
    rule: (c) => {
      const concrete = c.subjects.filter((s) => s.trim() && !CORE_TOOLS.has(s.trim()));
      if (concrete.length === 0) return 'not specific: it names no tool, file, command or error';
      return undefined;
    },
  },
  {
    name: 'actionable',
    rule: (c) => {
      const words = c.action.trim().split(/\s+/).filter(Boolean);
      if (words.length < 2 || !ACTION_VERB.test(c.action)) return 'not actionable: no concrete action to take';
      return undefined;
    },
  },
  {
    name: 'no tool counts',
    rule: (c) =>
      /\b(?:used|ran|called|invoked)\s+\d+\s+times\b|\btool (?:count|usage|frequency)\b/i.test(textOf(c))
        ? 'tool counts are never instincts'
        : undefined,
  },
  {
    name: 'no core tool sequences',
    rule: (c) => {
      if (c.category !== 'sequence' && c.category !== 'combo') return undefined;
      const body = c.key.slice(c.key.indexOf(':') + 1).toLowerCase();
      const parts = body.split(/->|\+/).map((p) => p.trim());
      if (parts.length > 1 && parts.every((p) => CORE_TOOL_WORDS.includes(p)))
        return 'agent tool sequences (Read -> Edit and the like) are never instincts';
      return undefined;
    },
  },
  {
    name: 'no standard git flow',
    rule: (c) => {
      const s = steps(c);
      if (s.length > 0 && s.every(isGitFlow)) return 'the standard git flow is never an instinct';
      if (c.facts?.error === 'git-conflict') return 'resolving a merge conflict is the standard git flow';
      return undefined;
    },
  },
  {
    name: 'no generic validation',
    rule: (c) => {
      const s = steps(c);
      if (s.length > 0 && !s.some(isProjectSpecific)) {
        return s.every(isEcosystemDefault) ? 'generic validation with stock toolchain commands' : 'uses no project-specific command';
      }
      if (s.length > 0 && s.every(isValidation))
        return "generic validation order (the project's own check commands are learned on their own)";
      if (c.miner === 'project-command' && !isProjectSpecific(String(c.facts?.command ?? '')))
        return 'a stock toolchain command, not project knowledge';
      if (c.facts?.generic === true) return 'generic failure (compile error, failing test): fixing it is the obvious next step';
      if (GENERIC_ADVICE.test(c.action)) return 'generic advice a fresh session already follows';
      if (c.miner === 'request' && GENERIC_ADVICE.test(c.subjects[0] ?? '')) return 'a request any session expects (add tests, commit)';
      return undefined;
    },
  },
  {
    name: 'non-obvious pair',
    rule: (c) => {
      const files = c.facts?.files;
      if (c.miner !== 'co-edit' || !Array.isArray(files) || files.length !== 2) return undefined;
      const obvious = isObviousPair(String(files[0]), String(files[1]));
      return obvious ? `obvious pair: ${obvious}` : undefined;
    },
  },
  {
    name: 'preference names its subject',
    rule: (c) => {
      if (c.category !== 'preference' || c.miner !== 'preference') return undefined;
      // Its subjects hold what the user named in plain words too ("the e2e suite"): the miner found them.
      const terms = [...c.subjects, ...concreteTerms(`${c.title} ${c.action}`)].filter((t) => t.trim() && !CORE_TOOLS.has(t));
      return terms.length === 0 ? 'preference too vague to act on (no tool, file or command named)' : undefined;
    },
  },
];

export function qualityGate(candidate: Candidate): GateResult {
  const reasons: string[] = [];
  for (const { rule } of GATE_RULES) {
    const reason = rule(candidate);
    if (reason) reasons.push(reason);
  }
  return { pass: reasons.length === 0, reasons };
}
