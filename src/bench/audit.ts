/**
 * A second, independent rule set for the quality of learned instincts (bench:learn): it
 * reads only the finished instinct (trigger, action, key), never the miners' facts, and
 * shares no code with the quality gate. An instinct fails when any rule objects.
 */

interface AuditInput {
  key: string;
  trigger: string;
  action: string;
}

type AuditRule = { name: string; fails: (i: AuditInput) => boolean };

const text = (i: AuditInput): string => `${i.trigger} ${i.action}`;
/** Something a reader could type or search for: code, a path, a file, a flag, an identifier or an error code. */
const HAS_CONCRETE =
  /`[^`]+`|\b[\w.-]+\/[\w./-]+|\b\w+\.(?:go|ts|js|py|rs|json|ya?ml|toml|md|sh)\b|\s--?[a-z][\w-]+|\b[a-z]+[A-Z]\w+|\b[A-Z]{1,4}\d{3,5}\b|\b(?:npm|pnpm|yarn|git|docker|cargo|pytest|mise|make|golangci-lint|eslint|tsc)\b/;
const BUILTIN_TOOLS = /\b(?:Read|Edit|Write|MultiEdit|Grep|Glob|Bash|Task|TodoWrite)\b/g;
const GIT_ROUTINE = /\bgit\s+(?:add|commit|push|pull|status|diff|log|fetch|checkout|switch)\b/;
const STOCK_CHECK = /\b(?:run|rerun|execute)\s+(?:the\s+|all\s+)?(?:tests?|test suite|linters?|build|type ?check(?:er)?|formatter)\b/i;
const PROJECT_TASK = /`(?:mise|make|just|task|npm|pnpm|yarn|bun|uv|poetry|deno)\s+(?:run\s+)?[\w:.-]+`|`\.{0,2}\/[\w./-]+`|`[\w./-]+\.sh\b/;
const IMPERATIVE =
  /^(?:use|run|rerun|fix|update|add|avoid|never|always|prefer|keep|check|wrap|handle|call|expect|edit|remove|extract|do not|don't|set|pass|put|write|ask|apply|return|move|satisfy|follow|respect|configure|install|create|delete|rename|split|merge|replace|declare|export|import|test|verify|start|stop)\b/i;
const SITUATION = /^(?:when|whenever|after|before|if|in|while|on|for|once|working)\b/i;

const AUDIT_RULES: readonly AuditRule[] = [
  { name: 'names something concrete', fails: (i) => !HAS_CONCRETE.test(text(i)) },
  {
    name: 'is not a usage statistic',
    fails: (i) =>
      /\b\d+\s*(?:times|calls|uses|invocations)\b.*\b(?:used|called|ran)\b|\b(?:used|called|ran)\b.*\b\d+\s*times\b/i.test(i.action),
  },
  {
    name: "is not only about the agent's built-in tools",
    fails: (i) => {
      const stripped = text(i).replace(BUILTIN_TOOLS, '');
      return (text(i).match(BUILTIN_TOOLS) ?? []).length >= 2 && !HAS_CONCRETE.test(stripped);
    },
  },
  {
    name: 'is not the git routine',
    fails: (i) => GIT_ROUTINE.test(i.action) && !HAS_CONCRETE.test(i.action.replace(GIT_ROUTINE, '').replace(/`\s*`/g, '')),
  },
  { name: 'is not stock validation', fails: (i) => STOCK_CHECK.test(i.action) && !PROJECT_TASK.test(i.action) },
  { name: 'says what to do', fails: (i) => !IMPERATIVE.test(i.action.trim()) },
  { name: 'says when', fails: (i) => !SITUATION.test(i.trigger.trim()) },
  { name: 'trigger and action differ', fails: (i) => i.trigger.trim().toLowerCase() === i.action.trim().toLowerCase() },
];

export function auditInstinct(i: AuditInput): string[] {
  return AUDIT_RULES.filter((r) => r.fails(i)).map((r) => r.name);
}
