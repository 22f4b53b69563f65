/**
 * The layers of docs/architecture.md, enforced: imports point down (or sideways), never up,
 * never in a cycle; surfaces never import each other (but for the composition root); SQL
 * and the SQLite handle only in store/. Each rule is a function, tried on the real tree and
 * on a small tree that breaks it, so a rule that stopped catching anything would fail too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = dirname(new URL(import.meta.url).pathname);

const LAYER: Record<string, number> = {
  core: 0,
  text: 0,
  store: 1,
  embed: 2,
  search: 2,
  llm: 2,
  capture: 3,
  learn: 3,
  graph: 3,
  view: 4,
  context: 4,
  // The personal agent's engine (workspace, sandbox, tools, audit, and later its loop and router):
  // the application's operations and the agent's surfaces (gateway, telegram, chat) sit on it.
  agent: 4,
  // The mind (seed 004): its data files, the kernel's permission table, B = M × A × P and its loops.
  mind: 4,
  app: 5,
  cli: 6,
  hooks: 6,
  mcp: 6,
  dashboard: 6,
  gateway: 6,
  telegram: 6,
  bench: 7,
};

const SURFACES = new Set(['cli', 'hooks', 'mcp', 'dashboard', 'gateway', 'telegram']);

/** The surface-to-surface imports allowed: cli/bin.ts, the composition root, routes `hook`, `mcp`, `dashboard` and `agent serve` to their own. */
const SURFACE_IMPORTS = new Set([
  'cli/bin.ts -> hooks/main.ts',
  'cli/bin.ts -> mcp/main.ts',
  'cli/bin.ts -> dashboard/main.ts',
  'cli/bin.ts -> gateway/main.ts',
  'cli/bin.ts -> telegram/main.ts',
  // `agent serve` starts the Telegram bot beside the gateway when it is configured.
  'gateway/main.ts -> telegram/main.ts',
]);

/** What only store/ may contain: SQL, the SQLite handle and its helpers. */
const SQL =
  /\bstore\.db\b|\bcachedStatement\b|\bwriteTx\b|\brawDatabase\b|['"]better-sqlite3['"]|\.prepare\(|\.pragma\(|\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\s/;

/** store/ modules nothing else may import: the SQLite internals and the tests' raw handle. */
const STORE_INTERNALS = new Set(['store/db.ts', 'store/migrations.ts', 'store/testing.ts']);

/** Source files (relative to src/) and what they import (relative too). */
type Tree = Map<string, { text: string; deps: string[] }>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string, text: string): string[] {
  // `import type` is erased at compile time: it orders layers but cannot form a runtime cycle.
  const runtime = text.replace(/^import type [^;]+;/gm, '');
  const specs = [...runtime.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)];
  return specs.map((m) => relative(SRC, resolve(dirname(join(SRC, file)), (m[1] ?? m[2] ?? '').replace(/\.js$/, '.ts'))));
}

function realTree(): Tree {
  const tree: Tree = new Map();
  for (const path of sourceFiles(SRC)) {
    const file = relative(SRC, path);
    const text = readFileSync(path, 'utf8');
    tree.set(file, { text, deps: importsOf(file, text) });
  }
  return tree;
}

const folderOf = (file: string): string => file.split('/')[0] ?? '';
const edges = (tree: Tree): [string, string][] => [...tree].flatMap(([file, { deps }]) => deps.map((d): [string, string] => [file, d]));

const unknownFolders = (tree: Tree): string[] => [
  ...new Set([...tree.keys()].map(folderOf).filter((f) => !f.endsWith('.ts') && LAYER[f] === undefined)),
];

const upwardImports = (tree: Tree): string[] =>
  edges(tree)
    .filter(([from, to]) => (LAYER[folderOf(to)] ?? 0) > (LAYER[folderOf(from)] ?? 0))
    .map(([from, to]) => `${from} -> ${to}`);

const surfaceCrossings = (tree: Tree): string[] =>
  edges(tree)
    .filter(([from, to]) => SURFACES.has(folderOf(from)) && SURFACES.has(folderOf(to)) && folderOf(from) !== folderOf(to))
    .map(([from, to]) => `${from} -> ${to}`)
    .filter((edge) => !SURFACE_IMPORTS.has(edge));

const sqlOutsideStore = (tree: Tree): string[] =>
  [...tree].filter(([file, { text }]) => folderOf(file) !== 'store' && SQL.test(text)).map(([file]) => file);

const storeInternalsUsed = (tree: Tree): string[] =>
  edges(tree)
    .filter(([from, to]) => folderOf(from) !== 'store' && STORE_INTERNALS.has(to))
    .map(([from, to]) => `${from} -> ${to}`);

function cycles(tree: Tree): string[] {
  const found: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      found.push([...stack.slice(stack.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'visiting');
    stack.push(file);
    for (const dep of tree.get(file)?.deps ?? []) if (tree.has(dep)) visit(dep);
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of tree.keys()) visit(file);
  return found;
}

describe('architecture of the source tree', () => {
  const tree = realTree();

  it('knows the layer of every top-level folder', () => expect(unknownFolders(tree)).toEqual([]));
  it('has no upward imports', () => expect(upwardImports(tree)).toEqual([]));
  it('keeps surfaces apart: none imports another, but for the composition root', () => expect(surfaceCrossings(tree)).toEqual([]));
  it('speaks SQL only in store/', () => expect(sqlOutsideStore(tree)).toEqual([]));
  it('reaches the store only through openStore and its repositories', () => expect(storeInternalsUsed(tree)).toEqual([]));
  it('has no import cycles', () => expect(cycles(tree)).toEqual([]));
});

describe('the architecture rules catch what they are for', () => {
  const bad: Tree = new Map([
    ['learn/miner.ts', { text: "const rows = db.prepare('SELECT * FROM instincts').all();", deps: ['app/instincts.ts'] }],
    ['app/instincts.ts', { text: '', deps: ['learn/miner.ts'] }],
    ['cli/commands/serve.ts', { text: '', deps: ['mcp/serve.ts', 'store/db.ts'] }],
    ['mcp/serve.ts', { text: 'const n = store.db;', deps: [] }],
    ['store/db.ts', { text: "import Database from 'better-sqlite3';", deps: [] }],
    ['widgets/thing.ts', { text: '', deps: [] }],
  ]);

  it('reports each violation by file', () => {
    expect(unknownFolders(bad)).toEqual(['widgets']);
    expect(upwardImports(bad)).toEqual(['learn/miner.ts -> app/instincts.ts']);
    expect(surfaceCrossings(bad)).toEqual(['cli/commands/serve.ts -> mcp/serve.ts']);
    expect(sqlOutsideStore(bad)).toEqual(['learn/miner.ts', 'mcp/serve.ts']);
    expect(storeInternalsUsed(bad)).toEqual(['cli/commands/serve.ts -> store/db.ts']);
    expect(cycles(bad)).toEqual(['learn/miner.ts -> app/instincts.ts -> learn/miner.ts']);
  });
});
