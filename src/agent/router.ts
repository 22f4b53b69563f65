/**
 * The model router (seed 001): a message is classified by a small rule set into one of the
 * seed's task kinds, and the kind decides the route (simple questions, tool dispatch, chat,
 * status, memory retrieval and heartbeats stay local; complex reasoning, code, multi-tool
 * planning, documents, architecture and research synthesis go to the remote model). A
 * person overrides it per session with `/escalate`, `/local` and `/auto`, and the budget is
 * asked before every escalation: spent, the turn stays local with a note saying so.
 */

export const LOCAL_KINDS = ['simple_question', 'tool_dispatch', 'chat', 'status', 'memory_retrieval', 'heartbeat'] as const;
export const REMOTE_KINDS = [
  'complex_reasoning',
  'code',
  'multi_tool_planning',
  'documents',
  'architecture',
  'research_synthesis',
] as const;
export type TaskKind = (typeof LOCAL_KINDS)[number] | (typeof REMOTE_KINDS)[number];
export type Route = 'local' | 'remote';
export type RouteMode = 'auto' | 'escalate' | 'local';

/** Seed 001's routing table. */
export const ROUTE_OF: Readonly<Record<TaskKind, Route>> = Object.fromEntries([
  ...LOCAL_KINDS.map((k) => [k, 'local']),
  ...REMOTE_KINDS.map((k) => [k, 'remote']),
]) as Record<TaskKind, Route>;

/** First match wins: the cheap fixed kinds, then the remote ones (their words are specific), then the local ones. */
const RULES: readonly [TaskKind, RegExp][] = [
  ['heartbeat', /^\s*\[?heartbeat\]?\b/i],
  ['status', /^\s*(status|are you (up|there|alive|running)|uptime|health ?check)\b[\s?.!]*$/i],
  [
    'code',
    // "code" as in programs, not a code word, a postal code or a dress code.
    /```|\b(?<!\b(?:zip|postal|post|dress|area|country|promo|discount|access|qr|secret|pin|security|door) )code\b(?!\s*(?:word|words|name)\b)|\b(function|refactor|implement|debug|bug|stack ?trace|typescript|javascript|python|rust|regex|sql query|compile|unit tests?)\b/i,
  ],
  ['architecture', /\b(architecture|architect|system design|design (a|the) (system|service|schema)|scalab\w*|microservices?)\b/i],
  [
    'documents',
    /\b(write|draft|compose|prepare) (a|an|the|my) ([\w-]+ )?(document|report|essay|proposal|letter|memo|article|spec|post)\b|\bsummari[sz]e (this|the) (document|pdf|paper|report)\b/i,
  ],
  ['research_synthesis', /\b(research|literature|synthesi[sz]e|compare (the )?(studies|papers|sources|options)|state of the art)\b/i],
  ['multi_tool_planning', /\b(plan (out|my|the|a)|step[- ]by[- ]step|and then|first\b.*\bthen\b|workflow|automate)\b/i],
  [
    'complex_reasoning',
    /\b(why (does|do|is|would)|prove|derive|analy[sz]e|trade-?offs?|reason (about|through)|explain in (depth|detail)|pros and cons)\b/i,
  ],
  ['memory_retrieval', /\b(remember|recall|remind me|did i (say|tell|mention)|what do you know about|last time|you told me)\b/i],
  [
    'tool_dispatch',
    /^\s*(run|list|read|write|save|publish|subscribe|fetch|echo|show|open|turn (on|off)|set)\b|\bwhat time\b|\btoday'?s date\b/i,
  ],
];

const LONG_MESSAGE = 800;

/** The task kind of a message. Pure. */
export function classifyTask(message: string): TaskKind {
  for (const [kind, rule] of RULES) if (rule.test(message)) return kind;
  // A long message without a recognised kind is usually a problem to think through.
  if (message.length > LONG_MESSAGE) return 'complex_reasoning';
  return /\?\s*$/.test(message) ? 'simple_question' : 'chat';
}

export interface RouteDecision {
  route: Route;
  kind: TaskKind;
  /** Why: the table, an override, or the budget. */
  reason: string;
  /** Shown to the person when the route differs from what was asked or classified. */
  note?: string;
}

export interface RouteInput {
  message: string;
  mode: RouteMode;
  /** Whether a remote model is configured at all. */
  remoteConfigured: boolean;
  /** Why the configured remote model cannot be used (its API key is missing), said when it would have answered. */
  remoteProblem?: string;
  /** The budget's answer; asked only when the route would be remote. */
  canEscalate: () => boolean;
}

/** Where a message goes. Pure apart from asking the budget. */
export function routeMessage(input: RouteInput): RouteDecision {
  const kind = classifyTask(input.message);
  if (input.mode === 'local') return { route: 'local', kind, reason: 'forced local (/local)' };
  // The heartbeat is the agent talking to itself on a timer: never a paid call, whatever mode
  // its session (or the persona it reached) asked for.
  if (kind === 'heartbeat') return { route: 'local', kind, reason: 'heartbeat → local (always)' };
  const wanted: Route = input.mode === 'escalate' ? 'remote' : ROUTE_OF[kind];
  const reason = input.mode === 'escalate' ? 'forced remote (/escalate)' : `${kind.replace(/_/g, ' ')} → ${wanted}`;
  if (wanted === 'local') return { route: 'local', kind, reason };
  if (!input.remoteConfigured)
    return {
      route: 'local',
      kind,
      reason,
      note: input.remoteProblem
        ? `${input.remoteProblem} The local model answers.`
        : 'No remote model is configured (agent.remote in config.json), so the local model answers.',
    };
  if (!input.canEscalate())
    return {
      route: 'local',
      kind,
      reason,
      note: "Today's budget for the remote model is spent (agent.budget.dailyUsd); the local model answers until UTC midnight.",
    };
  return { route: 'remote', kind, reason };
}

const MODE_COMMANDS: Readonly<Record<string, RouteMode>> = { '/escalate': 'escalate', '/local': 'local', '/auto': 'auto' };

/** The mode a message sets when it is one of the override commands. Pure. */
export function modeCommand(message: string): RouteMode | undefined {
  return MODE_COMMANDS[message.trim().toLowerCase()];
}

/** Each session's override, `auto` until a person says otherwise. */
export class SessionModes {
  private readonly modes = new Map<string, RouteMode>();
  get(session: string): RouteMode {
    return this.modes.get(session) ?? 'auto';
  }
  set(session: string, mode: RouteMode): void {
    if (mode === 'auto') this.modes.delete(session);
    else this.modes.set(session, mode);
  }
}

/** A routing note is said in full once per session; said again, in short (three sentences on every message are noise). */
export class SessionNotes {
  private readonly said = new Map<string, string>();

  once(session: string, note: string | undefined): string | undefined {
    if (!note) return undefined;
    const again = this.said.get(session) === note;
    this.said.set(session, note);
    return again ? 'The local model answers, as said above.' : note;
  }
}
