import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectStack, stackFromFiles } from './stack.js';

describe('stack detection', () => {
  it('names languages, tools and frameworks from marker files and manifests', () => {
    const pkg = JSON.stringify({ dependencies: { react: '^19', hono: '4' }, devDependencies: { vitest: '4', typescript: '5' } });
    const terms = stackFromFiles(new Set(['package.json', 'tsconfig.json', 'pnpm-lock.yaml']), [pkg]);
    expect(terms).toEqual(expect.arrayContaining(['javascript', 'node', 'typescript', 'pnpm', 'react', 'hono', 'vitest']));
    expect(terms).not.toContain('vue');
    // TypeScript as a dependency without a tsconfig.json (a tool's defaults) is TypeScript still.
    expect(stackFromFiles(new Set(['package.json']), [pkg])).toContain('typescript');
    expect(stackFromFiles(new Set(['go.mod']), ['module x\nrequire github.com/spf13/cobra v1.8.0'])).toEqual(['go', 'cobra']);
    expect(stackFromFiles(new Set())).toEqual([]);
  });

  it('reads a real directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'hom-stack-'));
    try {
      writeFileSync(join(root, 'Cargo.toml'), '[dependencies]\ntokio = "1"\n');
      expect(detectStack(root)).toEqual(['rust', 'cargo', 'tokio']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
