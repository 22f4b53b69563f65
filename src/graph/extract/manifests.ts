/**
 * A project's languages and dependencies, read from its manifest files: package.json,
 * Cargo.toml, pyproject.toml, go.mod, Gemfile, pom.xml and *.csproj. Parsers are pure and
 * never throw: a manifest that does not parse yields nothing (undefined), so a file caught
 * mid-edit is passed over instead of retiring every dependency it used to list.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse as parseTomlText } from 'smol-toml';
import { type Obj, isObj, nonBlank } from '../../core/fields.js';

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

type Found = Omit<Dependency, 'manifest'>;
type Parsed = { languages: string[]; dependencies: Found[] };

const dep = (name: string, version: string, dev = false): Found => ({ name: name.trim(), version: version.trim(), dev });

/** The value as a table, or an empty one: a mistyped section reads as no section. */
const table = (value: unknown): Obj => (isObj(value) ? value : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export function parsePackageJson(text: string): Parsed | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(json)) return undefined;
  const section = (key: string, dev: boolean) =>
    Object.entries(table(json[key])).map(([name, version]) => dep(name, typeof version === 'string' ? version : '', dev));
  const dependencies = [...section('dependencies', false), ...section('peerDependencies', false), ...section('devDependencies', true)];
  const ts = dependencies.some((d) => d.name === 'typescript') || typeof json.types === 'string';
  return { languages: ts ? ['TypeScript', 'JavaScript'] : ['JavaScript'], dependencies };
}

function parseToml(text: string): Obj | undefined {
  try {
    return parseTomlText(text, { unsafeKeyBehaviour: 'drop' });
  } catch {
    return undefined;
  }
}

/** A TOML dependency's version: `"1.0"`, `{ version = "1.0", ... }`, or Poetry's list of constraints. */
function tomlVersion(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return tomlVersion(value[0]);
  return nonBlank(table(value).version) ?? '';
}

/** `name = spec` pairs; Cargo's `package = "..."` renames the crate a key stands for. */
function tomlDependencies(section: unknown, dev: boolean): Found[] {
  return Object.entries(table(section)).map(([key, value]) => dep(nonBlank(table(value).package) ?? key, tomlVersion(value), dev));
}

/** [dependencies], [dev-dependencies], [build-dependencies] (build-time only, so counted as dev). */
const cargoSections = (t: Obj): Found[] => [
  ...tomlDependencies(t.dependencies, false),
  ...tomlDependencies(t['dev-dependencies'], true),
  ...tomlDependencies(t['build-dependencies'], true),
];

/** The package's own tables, each [target.'cfg(...)'] table, and a workspace's shared dependencies. */
export function parseCargoToml(text: string): Parsed | undefined {
  const doc = parseToml(text);
  if (!doc) return undefined;
  const targets = Object.values(table(doc.target)).flatMap((t) => cargoSections(table(t)));
  const workspace = tomlDependencies(table(doc.workspace).dependencies, false);
  return { languages: ['Rust'], dependencies: [...cargoSections(doc), ...targets, ...workspace] };
}

/** A PEP 508 requirement: `name[extras] specifier ; marker`, or `name @ url` (no version). */
function requirement(spec: unknown, dev: boolean): Found | undefined {
  if (typeof spec !== 'string') return undefined;
  const m = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*([^;]*)/.exec(spec);
  if (!m?.[1]) return undefined;
  const version = (m[2] ?? '').trim();
  return dep(m[1], version.startsWith('@') ? '' : version.replace(/^\((.*)\)$/, '$1'), dev);
}

const requirements = (specs: unknown, dev: boolean): Found[] => list(specs).flatMap((s) => requirement(s, dev) ?? []);

/** PEP 621 [project] dependencies, PEP 735 [dependency-groups] (dev) and Poetry's tables (groups are dev). */
export function parsePyproject(text: string): Parsed | undefined {
  const doc = parseToml(text);
  if (!doc) return undefined;
  const poetry = table(table(doc.tool).poetry);
  const groups = Object.values(table(poetry.group)).flatMap((g) => tomlDependencies(table(g).dependencies, true));
  const dependencies = [
    ...requirements(table(doc.project).dependencies, false),
    ...Object.values(table(doc['dependency-groups'])).flatMap((g) => requirements(g, true)),
    ...tomlDependencies(poetry.dependencies, false).filter((d) => d.name.toLowerCase() !== 'python'),
    ...tomlDependencies(poetry['dev-dependencies'], true),
    ...groups,
  ];
  return { languages: ['Python'], dependencies };
}

export function parseGoMod(text: string): Parsed {
  const out: Found[] = [];
  const body =
    [...text.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)].map((m) => m[1] ?? '').join('\n') +
    '\n' +
    [...text.matchAll(/^require\s+([^\s(]+\s+\S+)/gm)].map((m) => m[1]).join('\n');
  for (const m of body.matchAll(/^\s*([^\s/][^\s]*)\s+(v[^\s]+)(\s*\/\/\s*indirect)?/gm)) if (!m[3]) out.push(dep(m[1] ?? '', m[2] ?? ''));
  return { languages: ['Go'], dependencies: out };
}

export function parseGemfile(text: string): Parsed {
  const out: Found[] = [];
  for (const m of text.matchAll(/^\s*gem\s+['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/gm)) out.push(dep(m[1] ?? '', m[2] ?? ''));
  return { languages: ['Ruby'], dependencies: out };
}

/** Elements that repeat: always read as lists, even when a file has only one. */
const XML_LISTS = new Set(['dependency', 'profile', 'ItemGroup', 'PackageReference']);

// Text stays text (a version "1.10" is not the number 1.1); namespace prefixes are dropped.
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => XML_LISTS.has(name),
});

function parseXml(text: string): Obj | undefined {
  try {
    // The parser accepts broken XML silently; the validator is what says no.
    if (XMLValidator.validate(text) !== true) return undefined;
    const doc: unknown = xml.parse(text);
    return isObj(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** An element's text, whether it has attributes (`#text`) or not. */
const xmlText = (value: unknown): string | undefined =>
  (typeof value === 'string' ? nonBlank(value) : nonBlank(table(value)['#text']))?.trim();

/**
 * Direct dependencies of the project and of its profiles (not plugins' own). A missing
 * version comes from <dependencyManagement>; `${name}` is read from <properties>.
 */
export function parsePomXml(text: string): Parsed | undefined {
  const project = table(parseXml(text)?.project);
  if (Object.keys(project).length === 0) return undefined;
  const properties = table(project.properties);
  const resolve = (v: string): string =>
    v.replace(/\$\{([^}]+)\}/g, (whole, name: string) =>
      name === 'project.version' ? (xmlText(project.version) ?? whole) : (xmlText(properties[name]) ?? whole),
    );
  const coordinates = (d: Obj): string | undefined => {
    const artifact = xmlText(d.artifactId);
    const group = xmlText(d.groupId);
    return artifact && (group ? `${group}:${artifact}` : artifact);
  };
  const managed = new Map<string, string>();
  for (const d of list(table(table(project.dependencyManagement).dependencies).dependency).map(table)) {
    const name = coordinates(d);
    const version = xmlText(d.version);
    if (name && version) managed.set(name, version);
  }
  const declared = [project, ...list(table(project.profiles).profile).map(table)].flatMap((p) =>
    list(table(p.dependencies).dependency).map(table),
  );
  const dependencies = declared.flatMap((d) => {
    const name = coordinates(d);
    if (!name) return [];
    return [dep(name, resolve(xmlText(d.version) ?? managed.get(name) ?? ''), xmlText(d.scope) === 'test')];
  });
  return { languages: ['Java'], dependencies };
}

/** MSBuild <PackageReference Include=... Version=...>; PrivateAssets="all" (analyzers, build tools) counts as dev. */
export function parseCsproj(text: string): Parsed | undefined {
  const project = parseXml(text)?.Project;
  if (project === undefined) return undefined;
  const dependencies = list(table(project).ItemGroup).flatMap((group) =>
    list(table(group).PackageReference).flatMap((ref) => {
      const r = table(ref);
      const name = nonBlank(r['@Include']);
      if (!name) return [];
      const version = nonBlank(r['@Version']) ?? xmlText(r.Version) ?? '';
      const privateAssets = nonBlank(r['@PrivateAssets']) ?? xmlText(r.PrivateAssets) ?? '';
      return [dep(name, version, privateAssets.toLowerCase() === 'all')];
    }),
  );
  return { languages: ['C#'], dependencies };
}

/** Manifests by file name, or by extension for project files named after the project. */
const MANIFEST_PARSERS: readonly { matches: (file: string) => boolean; parse: (text: string) => Parsed | undefined }[] = [
  { matches: (f) => f === 'package.json', parse: parsePackageJson },
  { matches: (f) => f === 'Cargo.toml', parse: parseCargoToml },
  { matches: (f) => f === 'pyproject.toml', parse: parsePyproject },
  { matches: (f) => f === 'go.mod', parse: parseGoMod },
  { matches: (f) => f === 'Gemfile', parse: parseGemfile },
  { matches: (f) => f === 'pom.xml', parse: parsePomXml },
  { matches: (f) => f.endsWith('.csproj'), parse: parseCsproj },
];

function readManifest(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size <= MAX_MANIFEST_BYTES ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Reads whichever manifests exist at the project root. */
export function readManifests(root: string): ManifestInfo {
  const info: ManifestInfo = { manifests: [], languages: [], dependencies: [] };
  if (!root) return info;
  let files: string[];
  try {
    files = readdirSync(root).sort();
  } catch {
    return info;
  }
  for (const { matches, parse } of MANIFEST_PARSERS) {
    for (const file of files.filter(matches)) {
      const text = readManifest(join(root, file));
      const parsed = text === undefined ? undefined : parse(text);
      if (!parsed) continue;
      info.manifests.push(file);
      for (const l of parsed.languages) if (!info.languages.includes(l)) info.languages.push(l);
      for (const d of parsed.dependencies) {
        if (d.name && !info.dependencies.some((x) => x.name === d.name)) info.dependencies.push({ ...d, manifest: file });
      }
    }
  }
  if (existsSync(join(root, 'tsconfig.json')) && !info.languages.includes('TypeScript')) info.languages.unshift('TypeScript');
  info.dependencies = info.dependencies.slice(0, MAX_DEPENDENCIES);
  return info;
}
