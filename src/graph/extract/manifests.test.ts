import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import {
  parseCargoToml,
  parseCsproj,
  parseGemfile,
  parseGoMod,
  parsePackageJson,
  parsePomXml,
  parsePyproject,
  readManifests,
} from './manifests.js';

/** name@version, with a + for dev dependencies: one readable string per dependency. */
const deps = (parsed: { dependencies: { name: string; version: string; dev: boolean }[] } | undefined): string[] =>
  (parsed?.dependencies ?? []).map((d) => `${d.dev ? '+' : ''}${d.name}@${d.version}`);

describe('package.json', () => {
  it('reads its sections and TypeScript', () => {
    const r = parsePackageJson(JSON.stringify({ dependencies: { zod: '^4.0.0' }, devDependencies: { typescript: '5.9', vitest: '^4' } }));
    expect(r?.languages).toEqual(['TypeScript', 'JavaScript']);
    expect(r?.dependencies).toEqual([
      { name: 'zod', version: '^4.0.0', dev: false },
      { name: 'typescript', version: '5.9', dev: true },
      { name: 'vitest', version: '^4', dev: true },
    ]);
  });

  it('gives nothing for what is not a JSON object', () => {
    expect(parsePackageJson('{ not json')).toBeUndefined();
    expect(parsePackageJson('[1,2]')).toBeUndefined();
    expect(deps(parsePackageJson('{"dependencies": [1, 2]}'))).toEqual([]);
  });
});

describe('Cargo.toml', () => {
  it('reads plain, inline-table, dotted-table, target and workspace dependencies', () => {
    const cargo = `
[package]
name = "demo"
version = "0.1.0"   # a comment
edition = "2021"

[dependencies]
serde = "1.0"
tokio = { version = "1.38", features = ["full"] }
rand_core = { package = "rand", version = "0.8" }
local = { path = "../local" }
shared = { workspace = true }

[dependencies.reqwest]
version = "0.12"
default-features = false
features = ["json", "rustls-tls"]

[dev-dependencies]
insta = "1"

[build-dependencies]
cc = "1.0.90"

[target.'cfg(windows)'.dependencies]
winapi = { version = "0.3", features = ["winuser"] }

[workspace.dependencies]
anyhow = "1"
`;
    expect(deps(parseCargoToml(cargo))).toEqual([
      'serde@1.0',
      'tokio@1.38',
      'rand@0.8',
      'local@',
      'shared@',
      'reqwest@0.12',
      '+insta@1',
      '+cc@1.0.90',
      'winapi@0.3',
      'anyhow@1',
    ]);
    expect(parseCargoToml(cargo)?.languages).toEqual(['Rust']);
  });

  it('keeps a [dependencies] header inside a string from being read as a table', () => {
    expect(deps(parseCargoToml('[package]\ndescription = """\n[dependencies]\nfake = "1"\n"""\n'))).toEqual([]);
  });
});

describe('pyproject.toml', () => {
  it('reads PEP 621 requirements with extras, markers and URLs, and PEP 735 groups', () => {
    const py = parsePyproject(`
[project]
name = "demo"
requires-python = ">=3.11"
dependencies = [
  "requests>=2.31",
  "pydantic[email] ==2.7",  # trailing comment
  "tomli >= 1.1 ; python_version < '3.11'",
  "mylib @ https://example.org/mylib.whl",
  'numpy (>=1.26)',
  "click",
]

[project.optional-dependencies]
postgres = ["psycopg>=3"]

[dependency-groups]
test = ["pytest>=8", { include-group = "lint" }]
lint = ["ruff"]
`);
    expect(deps(py)).toEqual([
      'requests@>=2.31',
      'pydantic@==2.7',
      'tomli@>= 1.1',
      'mylib@',
      'numpy@>=1.26',
      'click@',
      '+pytest@>=8',
      '+ruff@',
    ]);
  });

  it("reads Poetry's dependencies, its old dev table and its groups, without python", () => {
    const py = parsePyproject(`
[tool.poetry]
name = "demo"

[tool.poetry.dependencies]
python = "^3.11"
fastapi = "^0.110"
uvicorn = { version = "^0.29", extras = ["standard"] }
foo = [
  { version = "<=1.9", python = ">=3.6,<3.8" },
  { version = "^2.0", python = ">=3.8" },
]
mylib = { git = "https://example.org/mylib.git" }

[tool.poetry.dev-dependencies]
black = "^24"

[tool.poetry.group.test.dependencies]
pytest = "^8.0"
`);
    expect(deps(py)).toEqual(['fastapi@^0.110', 'uvicorn@^0.29', 'foo@<=1.9', 'mylib@', '+black@^24', '+pytest@^8.0']);
  });
});

describe('go.mod and Gemfile', () => {
  it('reads require blocks without indirect dependencies, and gems', () => {
    const go = parseGoMod(
      'module example.com/x\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n\tgolang.org/x/sys v0.20.0 // indirect\n)\nrequire github.com/stretchr/testify v1.9.0\n',
    );
    expect(deps(go)).toEqual(['github.com/spf13/cobra@v1.8.0', 'github.com/stretchr/testify@v1.9.0']);
    expect(deps(parseGemfile("source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngem \"pg\"\n"))).toEqual(['rails@~> 7.1', 'pg@']);
  });
});

describe('pom.xml', () => {
  it('reads direct dependencies, test scope as dev', () => {
    const pom = parsePomXml(
      '<project><dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13</version><scope>test</scope></dependency><dependency><artifactId>guava</artifactId></dependency></dependencies></project>',
    );
    expect(pom?.dependencies).toEqual([
      { name: 'junit:junit', version: '4.13', dev: true },
      { name: 'guava', version: '', dev: false },
    ]);
  });

  it('handles namespaces, comments, properties, managed versions, profiles, and skips plugin dependencies', () => {
    const pom = parsePomXml(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>demo</artifactId>
  <version>1.2.0</version>
  <properties>
    <jackson.version>2.17.1</jackson.version>
  </properties>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.slf4j</groupId>
        <artifactId>slf4j-api</artifactId>
        <version>2.0.13</version>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <!-- <dependency><groupId>old</groupId><artifactId>gone</artifactId></dependency> -->
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>\${jackson.version}</version>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
    </dependency>
    <dependency>
      <groupId>com.example</groupId>
      <artifactId>demo-core</artifactId>
      <version>\${project.version}</version>
    </dependency>
    <dependency>
      <groupId>org.example</groupId>
      <artifactId>unknown</artifactId>
      <version>\${not.defined}</version>
    </dependency>
  </dependencies>
  <profiles>
    <profile>
      <id>it</id>
      <dependencies>
        <dependency>
          <groupId>org.testcontainers</groupId>
          <artifactId>postgresql</artifactId>
          <version>1.19.8</version>
          <scope>test</scope>
        </dependency>
      </dependencies>
    </profile>
  </profiles>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <dependencies>
          <dependency><groupId>org.junit</groupId><artifactId>plugin-only</artifactId></dependency>
        </dependencies>
      </plugin>
    </plugins>
  </build>
</project>`);
    expect(deps(pom)).toEqual([
      'com.fasterxml.jackson.core:jackson-databind@2.17.1',
      'org.slf4j:slf4j-api@2.0.13',
      'com.example:demo-core@1.2.0',
      'org.example:unknown@${not.defined}',
      '+org.testcontainers:postgresql@1.19.8',
    ]);
  });

  it('keeps a version such as 1.10 as text', () => {
    expect(
      deps(
        parsePomXml(
          '<project><dependencies><dependency><artifactId>a</artifactId><version>1.10</version></dependency></dependencies></project>',
        ),
      ),
    ).toEqual(['a@1.10']);
  });
});

describe('*.csproj', () => {
  it('reads PackageReference items, from attributes or child elements', () => {
    const csproj = parseCsproj(`<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <!-- <PackageReference Include="Commented.Out" Version="1.0" /> -->
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
    <PackageReference Include="Serilog">
      <Version>3.1.1</Version>
    </PackageReference>
  </ItemGroup>
  <ItemGroup Condition="'$(Configuration)' == 'Debug'">
    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />
    <PackageReference Include="Central.Managed" />
    <PackageReference Update="Only.Updated" Version="2.0" />
    <ProjectReference Include="..\\Core\\Core.csproj" />
  </ItemGroup>
</Project>`);
    expect(csproj?.languages).toEqual(['C#']);
    expect(deps(csproj)).toEqual(['Newtonsoft.Json@13.0.3', 'Serilog@3.1.1', '+StyleCop.Analyzers@1.1.118', 'Central.Managed@']);
  });

  it('reads an old-style project with the MSBuild namespace', () => {
    const csproj = parseCsproj(`<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup><PackageReference Include="NUnit"><Version>3.14.0</Version><PrivateAssets>All</PrivateAssets></PackageReference></ItemGroup>
</Project>`);
    expect(deps(csproj)).toEqual(['+NUnit@3.14.0']);
  });
});

describe('malformed manifests give nothing and never throw', () => {
  const cases: [string, (text: string) => unknown, string[]][] = [
    [
      'Cargo.toml',
      parseCargoToml,
      ['[dependencies\nserde = "1"', 'serde = "1"\nserde = "2"', '[dependencies]\nserde = { version = "1"', '\u0000\u0001', '= = ='],
    ],
    ['pyproject.toml', parsePyproject, ['[project]\ndependencies = ["requests",', '[project\nname = "x"', 'dependencies = [[[']],
    [
      'pom.xml',
      parsePomXml,
      [
        '<project><dependencies><dependency><artifactId>a</artifactId>',
        '<project><a></b></project>',
        'not xml at all',
        '',
        '<a x="1></a>',
        '<dependencies><dependency><artifactId>no project</artifactId></dependency></dependencies>',
      ],
    ],
    [
      '*.csproj',
      parseCsproj,
      ['<Project><ItemGroup><PackageReference Include="A" Version="1"></ItemGroup></Project>', '<<<>>>', '{"json": true}'],
    ],
  ];
  for (const [name, parse, texts] of cases) {
    it(name, () => {
      for (const text of texts) expect(parse(text), JSON.stringify(text)).toBeUndefined();
    });
  }
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

  it('finds project files by extension, each under its own name', () => {
    const project = (pkg: string) =>
      `<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="${pkg}" Version="1.0" /></ItemGroup></Project>`;
    writeFileSync(join(dir.path, 'Web.csproj'), project('Web.Package'));
    writeFileSync(join(dir.path, 'Api.csproj'), project('Api.Package'));
    mkdirSync(join(dir.path, 'Folder.csproj'));
    const info = readManifests(dir.path);
    expect(info.manifests).toEqual(['Api.csproj', 'Web.csproj']);
    expect(info.languages).toEqual(['C#']);
    expect(info.dependencies.map((d) => [d.name, d.manifest])).toEqual([
      ['Api.Package', 'Api.csproj'],
      ['Web.Package', 'Web.csproj'],
    ]);
  });

  it('leaves out a manifest that does not parse, so its dependencies are not taken as removed', () => {
    writeFileSync(join(dir.path, 'Cargo.toml'), '[dependencies]\nserde = { version = "1"\n');
    writeFileSync(join(dir.path, 'pom.xml'), '<project><dependencies>');
    writeFileSync(join(dir.path, 'package.json'), '{ "dependencies": ');
    writeFileSync(join(dir.path, 'Gemfile'), "gem 'rails'\n");
    expect(readManifests(dir.path)).toEqual({
      manifests: ['Gemfile'],
      languages: ['Ruby'],
      dependencies: [{ name: 'rails', version: '', dev: false, manifest: 'Gemfile' }],
    });
  });

  it('returns nothing for a missing or empty root', () => {
    expect(readManifests(join(dir.path, 'nope'))).toEqual({ manifests: [], languages: [], dependencies: [] });
    expect(readManifests('')).toEqual({ manifests: [], languages: [], dependencies: [] });
  });
});
