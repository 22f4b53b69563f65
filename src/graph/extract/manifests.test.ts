import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import { parseCargoToml, parseGemfile, parseGoMod, parsePackageJson, parsePomXml, parsePyproject, readManifests } from './manifests.js';

describe('manifest parsers', () => {
  it('reads package.json sections and TypeScript', () => {
    const r = parsePackageJson(JSON.stringify({ dependencies: { zod: '^4.0.0' }, devDependencies: { typescript: '5.9', vitest: '^4' } }));
    expect(r.languages).toEqual(['TypeScript', 'JavaScript']);
    expect(r.dependencies).toEqual([
      { name: 'zod', version: '^4.0.0', dev: false },
      { name: 'typescript', version: '5.9', dev: true },
      { name: 'vitest', version: '^4', dev: true },
    ]);
    expect(parsePackageJson('{ not json')).toEqual({ languages: [], dependencies: [] });
    expect(parsePackageJson('[1,2]')).toEqual({ languages: [], dependencies: [] });
  });

  it('reads Cargo.toml, pyproject.toml, go.mod, Gemfile and pom.xml', () => {
    expect(
      parseCargoToml(
        '[package]\nname = "x"\n[dependencies]\nserde = "1.0"\ntokio = { version = "1.38", features = ["full"] }\n[dev-dependencies]\ninsta = "1"\n',
      ).dependencies,
    ).toEqual([
      { name: 'serde', version: '1.0', dev: false },
      { name: 'tokio', version: '1.38', dev: false },
      { name: 'insta', version: '1', dev: true },
    ]);
    const py = parsePyproject(
      '[project]\nname = "x"\ndependencies = [\n  "requests>=2.31",\n  "pydantic[email] ==2.7",\n]\n[tool.poetry.dependencies]\npython = "^3.11"\nfastapi = "^0.110"\n',
    );
    expect(py.dependencies.map((d) => d.name)).toEqual(['requests', 'pydantic', 'fastapi']);
    expect(py.dependencies[0]?.version).toBe('>=2.31');
    const go = parseGoMod(
      'module example.com/x\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sys v0.20.0 // indirect\n)\nrequire github.com/stretchr/testify v1.9.0\n',
    );
    expect(go.dependencies.map((d) => `${d.name}@${d.version}`)).toEqual([
      'github.com/spf13/cobra@v1.8.0',
      'github.com/stretchr/testify@v1.9.0',
    ]);
    expect(parseGemfile("source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem \"pg\"\n").dependencies).toEqual([
      { name: 'rails', version: '~> 7.1', dev: false },
      { name: 'pg', version: '', dev: false },
    ]);
    const pom = parsePomXml(
      '<project><dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13</version><scope>test</scope></dependency><dependency><artifactId>guava</artifactId></dependency></dependencies></project>',
    );
    expect(pom.dependencies).toEqual([
      { name: 'junit:junit', version: '4.13', dev: true },
      { name: 'guava', version: '', dev: false },
    ]);
  });
});

describe('readManifests', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir()));
  afterEach(() => dir.cleanup());

  it('merges every manifest at the root, first one wins a shared name', () => {
    writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ dependencies: { left: '1.0.0' } }));
    writeFileSync(join(dir.path, 'tsconfig.json'), '{}');
    writeFileSync(join(dir.path, 'go.mod'), 'module x\nrequire github.com/a/b v1.0.0\n');
    const info = readManifests(dir.path);
    expect(info.manifests).toEqual(['package.json', 'go.mod']);
    expect(info.languages).toEqual(['TypeScript', 'JavaScript', 'Go']);
    expect(info.dependencies.map((d) => [d.name, d.manifest])).toEqual([
      ['left', 'package.json'],
      ['github.com/a/b', 'go.mod'],
    ]);
  });

  it('returns nothing for a missing or empty root', () => {
    expect(readManifests(join(dir.path, 'nope'))).toEqual({ manifests: [], languages: [], dependencies: [] });
    expect(readManifests('')).toEqual({ manifests: [], languages: [], dependencies: [] });
  });
});
