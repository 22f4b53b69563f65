// Bundles the hook entry into one file (dist/hooks/bundle/main.js). A hook is a fresh process
// after every tool call: loading one module instead of about 140 saves tens of milliseconds.
// Dependencies stay external. Without esbuild (a production install), bin.js falls back to
// the unbundled entry.
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist', 'hooks', 'main.js');
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.log('bundle-hooks: esbuild is not installed; hooks run unbundled');
  process.exit(0);
}
if (!existsSync(entry)) throw new Error(`bundle-hooks: ${entry} is missing; run tsc first`);
const outdir = join(root, 'dist', 'hooks', 'bundle');
// Chunk names carry content hashes: old ones would pile up.
rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: [entry],
  // Code the hooks import lazily stays in chunks loaded only when needed.
  outdir,
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
