/**
 * The built web app (`npm run build` writes it to dist/dashboard/app), read once into memory:
 * the server answers only the paths this map holds, so no request names a file on disk.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Where the build puts the app: the same place from src/dashboard and dist/dashboard. */
export const APP_DIR = fileURLToPath(new URL('../../dist/dashboard/app/', import.meta.url));

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Homunculus</title></head>
<body><p>The dashboard's web app is not built in this installation: run <code>npm run build</code>, then start the dashboard again.</p></body></html>`;

/** Every file of the built app by its URL path ("/" is index.html); a page that says so when it is not built. */
export function loadAssets(dir: string = APP_DIR): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return new Map([['/', { type: TYPES['.html'] as string, body: Buffer.from(NOT_BUILT) }]]);
  out.set('/', { type: TYPES['.html'] as string, body: readFileSync(index) });
  const assets = join(dir, 'assets');
  for (const name of existsSync(assets) ? readdirSync(assets) : []) {
    const type = TYPES[extname(name)];
    if (type) out.set(`/assets/${name}`, { type, body: readFileSync(join(assets, name)) });
  }
  return out;
}
