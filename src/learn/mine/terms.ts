/**
 * Concrete terms in free text: what makes a learned pattern specific (the gate asks
 * that it name a tool, file, command or error). Pure.
 */

/** Developer tools and command words common enough to recognise without quotes. */
const TOOL_WORDS = new Set(
  (
    'npm pnpm yarn bun npx node deno tsc eslint prettier biome vitest jest mocha pytest tox ruff black mypy pip pipenv poetry uv ' +
    'cargo rustc clippy rustfmt go gofmt goimports golangci-lint gopls mise make just rake bundle gem rails docker podman kubectl helm ' +
    'terraform git gh stash rebase squash amend cherry-pick worktree submodule commit push merge sqlite postgres psql mysql redis ' +
    'webpack vite rollup esbuild turbo nx lerna storybook playwright cypress selenium curl wget jq make cmake gradle maven mvn ' +
    'java kotlin swift xcode brew apt tmux vim emacs vscode zod prisma drizzle typeorm sequelize mongoose graphql grpc protobuf ' +
    'react vue svelte angular next nuxt remix astro tailwind express fastify hono koa django flask fastapi spring dotnet ' +
    'typescript javascript python rust golang ruby php elixir bash zsh powershell lint linter formatter goreleaser makefile ' +
    'dockerfile changelog readme todo fixme nolint eslint-disable ts-ignore any unknown mock mocks snapshot snapshots fixture ' +
    'fixtures subagent subagents mcp lsp hook hooks cobra viper testify go-git print println console logger logging'
  ).split(' '),
);

const PATTERNS: readonly RegExp[] = [
  /`([^`\n]{1,80})`/g, // inline code
  /(?:^|[\s(])((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+\/?)/g, // paths
  /(?:^|[\s(])([\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|go|py|rs|rb|java|kt|swift|json|ya?ml|toml|md|sh|sql|css|scss|html|lock|env|mod|sum))\b/g, // file names
  /(?:^|\s)(--?[a-z][\w-]{1,30})\b/g, // flags
  /\b([a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*)\b/g, // camelCase / PascalCase with two humps
  /\b([a-z0-9]+_[a-z0-9_]+)\b/g, // snake_case
  /\b([A-Z]{2,}[0-9]*)\b/g, // acronyms and codes (TS2345, E0308, CLI) — filtered below
  /\b([a-z]+\.[A-Za-z]\w+)\b/g, // pkg.Func
];

const COMMON_ACRONYMS = new Set(['I', 'OK', 'PR', 'AI', 'UI', 'OR', 'AND', 'NOT', 'IT', 'TODO', 'ASAP', 'FYI', 'IMO', 'NO', 'YES']);

export function concreteTerms(text: string): string[] {
  const found = new Set<string>();
  for (const re of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const term = (m[1] ?? '').trim();
      if (!term || COMMON_ACRONYMS.has(term)) continue;
      if (/^[a-z]+\.[a-z]+$/.test(term) && !/\.(ts|js|go|py|rs|md|json|ya?ml|toml|sh|lock)$/.test(term)) {
        // "e.g", "i.e", prose abbreviations
        if (term.length < 6) continue;
      }
      found.add(term);
    }
  }
  for (const word of text.toLowerCase().split(/[^a-z0-9.+_-]+/)) {
    if (TOOL_WORDS.has(word)) found.add(word);
  }
  return [...found];
}

/** Core agent tools: naming only these is never specific enough. */
export const CORE_TOOLS = new Set([
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'Bash',
  'Grep',
  'Glob',
  'Task',
  'TodoWrite',
  'WebFetch',
  'WebSearch',
  'LS',
  'NotebookEdit',
  'TaskCreate',
  'TaskUpdate',
  'TaskOutput',
]);
