/**
 * A project's languages and dependencies, read from its manifest files: package.json,
 * Cargo.toml, pyproject.toml, go.mod, Gemfile, pom.xml. Parsers are pure and tolerant: a
 * malformed manifest yields what can be read, never an exception.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Dependency {
  name: string;
  version: string;
  dev: boolean;
  manifest: string;
}

export interface ManifestInfo {
  manifests: string[];
  languages: string[];
  dependencies: Dependency[];
}

const MAX_DEPENDENCIES = 100;
const MAX_MANIFEST_BYTES = 1_000_000;

type Parsed = { languages: string[]; dependencies: Omit<Dependency, 'manifest'>[] };

const dep = (name: string, version: string, dev = false): Omit<Dependency, 'manifest'> => ({
  name: name.trim(),
  version: version.trim(),
  dev,
});

export function parsePackageJson(text: string): Parsed {
  let json: Record<string, unknown>;
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { languages: [], dependencies: [] };
    json = value as Record<string, unknown>;
  } catch {
    return { languages: [], dependencies: [] };
  }
  const section = (key: string, dev: boolean) => {
    const v = json[key];
    if (!v || typeof v !== 'object' || Array.isArray(v)) return [];
    return Object.entries(v as Record<string, unknown>).map(([name, version]) =>
      dep(name, typeof version === 'string' ? version : '', dev),
    );
  };
  const dependencies = [...section('dependencies', false), ...section('peerDependencies', false), ...section('devDependencies', true)];
  const ts = dependencies.some((d) => d.name === 'typescript') || typeof json.types === 'string';
  return { languages: ts ? ['TypeScript', 'JavaScript'] : ['JavaScript'], dependencies };
}

/** The body of a [section] of a TOML/INI-like file (until the next header). */
function tomlSection(text: string, header: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === `[${header}]`);
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

function tomlTable(body: string, dev: boolean): Omit<Dependency, 'manifest'>[] {
  const out: Omit<Dependency, 'manifest'>[] = [];
  for (const m of body.matchAll(/^\s*([A-Za-z0-9_.-]+)\s*=\s*(.+)$/gm)) {
    const value = m[2] ?? '';
    const version = /^"([^"]*)"/.exec(value)?.[1] ?? /version\s*=\s*"([^"]*)"/.exec(value)?.[1] ?? '';
    out.push(dep(m[1] ?? '', version, dev));
  }
  return out;
}

export function parseCargoToml(text: string): Parsed {
  return {
    languages: ['Rust'],
    dependencies: [...tomlTable(tomlSection(text, 'dependencies'), false), ...tomlTable(tomlSection(text, 'dev-dependencies'), true)],
  };
}

/** PEP 621 `dependencies = [...]` and Poetry tables. */
export function parsePyproject(text: string): Parsed {
  const out: Omit<Dependency, 'manifest'>[] = [];
  const list = /^\s*dependencies\s*=\s*\[([\s\S]*?)\]/m.exec(tomlSection(text, 'project'))?.[1] ?? '';
  for (const m of list.matchAll(/"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*([^";]*)/g)) out.push(dep(m[1] ?? '', m[2] ?? ''));
  out.push(...tomlTable(tomlSection(text, 'tool.poetry.dependencies'), false).filter((d) => d.name.toLowerCase() !== 'python'));
  out.push(...tomlTable(tomlSection(text, 'tool.poetry.group.dev.dependencies'), true));
  return { languages: ['Python'], dependencies: out };
}

export function parseGoMod(text: string): Parsed {
  const out: Omit<Dependency, 'manifest'>[] = [];
  const body =
    [...text.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)].map((m) => m[1] ?? '').join('\n') +
    '\n' +
    [...text.matchAll(/^require\s+([^\s(]+\s+\S+)/gm)].map((m) => m[1]).join('\n');
  for (const m of body.matchAll(/^\s*([^\s/][^\s]*)\s+(v[^\s]+)(\s*\/\/\s*indirect)?/gm)) if (!m[3]) out.push(dep(m[1] ?? '', m[2] ?? ''));
  return { languages: ['Go'], dependencies: out };
}

export function parseGemfile(text: string): Parsed {
  const out: Omit<Dependency, 'manifest'>[] = [];
  for (const m of text.matchAll(/^\s*gem\s+['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/gm)) out.push(dep(m[1] ?? '', m[2] ?? ''));
  return { languages: ['Ruby'], dependencies: out };
}

export function parsePomXml(text: string): Parsed {
  const out: Omit<Dependency, 'manifest'>[] = [];
  for (const m of text.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const body = m[1] ?? '';
    const artifact = /<artifactId>\s*([^<]+?)\s*<\/artifactId>/.exec(body)?.[1];
    if (!artifact) continue;
    const group = /<groupId>\s*([^<]+?)\s*<\/groupId>/.exec(body)?.[1];
    out.push(
      dep(
        group ? `${group}:${artifact}` : artifact,
        /<version>\s*([^<]+?)\s*<\/version>/.exec(body)?.[1] ?? '',
        /<scope>\s*test\s*<\/scope>/.test(body),
      ),
    );
  }
  return { languages: ['Java'], dependencies: out };
}

const MANIFEST_PARSERS: Readonly<Record<string, (text: string) => Parsed>> = {
  'package.json': parsePackageJson,
  'Cargo.toml': parseCargoToml,
  'pyproject.toml': parsePyproject,
  'go.mod': parseGoMod,
  Gemfile: parseGemfile,
  'pom.xml': parsePomXml,
};

/** Reads whichever manifests exist at the project root. */
export function readManifests(root: string): ManifestInfo {
  const info: ManifestInfo = { manifests: [], languages: [], dependencies: [] };
  if (!root) return info;
  for (const [file, parse] of Object.entries(MANIFEST_PARSERS)) {
    const path = join(root, file);
    let text: string;
    try {
      if (!existsSync(path) || statSync(path).size > MAX_MANIFEST_BYTES) continue;
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const parsed = parse(text);
    info.manifests.push(file);
    for (const l of parsed.languages) if (!info.languages.includes(l)) info.languages.push(l);
    for (const d of parsed.dependencies) {
      if (d.name && !info.dependencies.some((x) => x.name === d.name)) info.dependencies.push({ ...d, manifest: file });
    }
  }
  if (existsSync(join(root, 'tsconfig.json')) && !info.languages.includes('TypeScript')) info.languages.unshift('TypeScript');
  info.dependencies = info.dependencies.slice(0, MAX_DEPENDENCIES);
  return info;
}
