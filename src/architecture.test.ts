/** DESIGN.md's layers, enforced: imports point down (or sideways), never up, and never in a cycle. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = dirname(new URL(import.meta.url).pathname);

const LAYER: Record<string, number> = {
  core: 0,
  store: 1,
  embed: 2,
  search: 2,
  llm: 2,
  capture: 3,
  learn: 3,
  graph: 3,
  view: 4,
  context: 4,
  app: 5,
  cli: 6,
  hooks: 6,
  mcp: 6,
  dashboard: 6,
  gateway: 6,
  telegram: 6,
  agent: 6,
  mind: 6,
  bench: 7,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test-support' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  // `import type` is erased at compile time: it orders layers but cannot form a runtime cycle.
  const runtime = text.replace(/^import type [^;]+;/gm, '');
  const specs = [...runtime.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)];
  return specs.map((m) => resolve(dirname(file), (m[1] ?? m[2] ?? '').replace(/\.js$/, '.ts')));
}

const folderOf = (file: string): string => relative(SRC, file).split('/')[0] ?? '';

const SURFACES = new Set(['cli', 'hooks', 'mcp', 'dashboard', 'gateway', 'telegram', 'agent', 'mind']);

/** The surface-to-surface imports allowed: cli/bin.ts, the composition root, routes `hook` to hooks/ and `mcp` to mcp/. */
const SURFACE_IMPORTS = new Set(['cli/bin.ts -> hooks/main.ts', 'cli/bin.ts -> mcp/main.ts']);

/** Folders already free of SQL and of the raw database handle (store/ is the only code that speaks SQL). */
const SQL_FREE = ['capture', 'hooks'];
const SQL =
  /\bstore\.db\b|\bcachedStatement\b|\bwriteTx\b|\brawDatabase\b|better-sqlite3|\.prepare\(|\.pragma\(|\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\s/;

describe('architecture', () => {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((f) => [f, imports(f)]));

  it('knows the layer of every top-level folder', () => {
    const folders = new Set(files.map(folderOf).filter((f) => !f.endsWith('.ts')));
    for (const folder of folders) expect(LAYER[folder], `add ${folder}/ to LAYER`).toBeDefined();
  });

  it('has no upward imports', () => {
    const violations: string[] = [];
    for (const [file, deps] of graph) {
      const from = LAYER[folderOf(file)] ?? 0;
      for (const dep of deps) {
        const to = LAYER[folderOf(dep)] ?? 0;
        if (to > from) violations.push(`${relative(SRC, file)} -> ${relative(SRC, dep)}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps surfaces apart: none imports another, but for the composition root', () => {
    const crossings: string[] = [];
    for (const [file, deps] of graph) {
      const from = folderOf(file);
      if (!SURFACES.has(from)) continue;
      for (const dep of deps) {
        const to = folderOf(dep);
        const edge = `${relative(SRC, file)} -> ${relative(SRC, dep)}`;
        if (SURFACES.has(to) && to !== from && !SURFACE_IMPORTS.has(edge)) crossings.push(edge);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('speaks no SQL outside store/ in the folders that are done', () => {
    const offenders = files.filter((f) => SQL_FREE.includes(folderOf(f)) && SQL.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(file)), file].map((f) => relative(SRC, f)).join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      stack.push(file);
      for (const dep of graph.get(file) ?? []) if (graph.has(dep)) visit(dep);
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file);
    expect(cycles).toEqual([]);
  });
});
