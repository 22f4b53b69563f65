/**
 * A project's stack (languages, tools, frameworks) from its marker files, for the
 * session-start query ("project name and detected language/framework").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Marker files and what they say about a project's stack. */
const STACK_MARKERS: readonly (readonly [string, readonly string[]])[] = [
  ['package.json', ['javascript', 'node']],
  ['tsconfig.json', ['typescript']],
  ['deno.json', ['deno', 'typescript']],
  ['Cargo.toml', ['rust', 'cargo']],
  ['go.mod', ['go']],
  ['pyproject.toml', ['python']],
  ['requirements.txt', ['python', 'pip']],
  ['setup.py', ['python']],
  ['Pipfile', ['python', 'pipenv']],
  ['uv.lock', ['uv']],
  ['poetry.lock', ['poetry']],
  ['Gemfile', ['ruby', 'bundler']],
  ['pom.xml', ['java', 'maven']],
  ['build.gradle', ['java', 'gradle']],
  ['build.gradle.kts', ['kotlin', 'gradle']],
  ['composer.json', ['php', 'composer']],
  ['mix.exs', ['elixir']],
  ['Package.swift', ['swift']],
  ['pubspec.yaml', ['dart', 'flutter']],
  ['CMakeLists.txt', ['cpp', 'cmake']],
  ['Makefile', ['make']],
  ['Dockerfile', ['docker']],
  ['pnpm-lock.yaml', ['pnpm']],
  ['yarn.lock', ['yarn']],
  ['bun.lockb', ['bun']],
  ['mise.toml', ['mise']],
];

/** Dependencies worth naming in a search query when package.json / pyproject / Gemfile lists them. */
// prettier-ignore
const FRAMEWORKS = [
  'typescript', 'react', 'next', 'vue', 'nuxt', 'svelte', 'angular', 'express', 'fastify', 'hono', 'nestjs', 'vite', 'vitest', 'jest',
  'mocha', 'playwright', 'eslint', 'prisma', 'django', 'flask', 'fastapi', 'pytest', 'pandas', 'numpy', 'torch',
  'rails', 'rspec', 'sinatra', 'spring', 'tokio', 'axum', 'actix', 'serde', 'cobra', 'gin',
];

/** Pure: stack terms from the marker files present and the manifests' text. */
export function stackFromFiles(present: ReadonlySet<string>, manifests: readonly string[] = []): string[] {
  const terms = new Set<string>();
  for (const [file, words] of STACK_MARKERS) if (present.has(file)) words.forEach((w) => terms.add(w));
  const text = manifests.join('\n').toLowerCase();
  for (const fw of FRAMEWORKS) {
    if (new RegExp(`["'\\s/@]${fw}(?:["'/\\s=<>~^:-]|js)`).test(text)) terms.add(fw);
  }
  return [...terms];
}

/** The detected stack of a project root, e.g. ['javascript', 'node', 'typescript', 'vitest']. */
export function detectStack(root: string): string[] {
  const present = new Set(STACK_MARKERS.map(([f]) => f).filter((f) => existsSync(join(root, f))));
  const manifests: string[] = [];
  for (const file of ['package.json', 'pyproject.toml', 'Gemfile', 'Cargo.toml', 'go.mod', 'requirements.txt']) {
    if (!present.has(file)) continue;
    const text = readText(join(root, file));
    if (text) manifests.push(text.slice(0, 64 * 1024));
  }
  return stackFromFiles(present, manifests);
}
