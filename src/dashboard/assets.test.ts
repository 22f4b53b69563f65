import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { loadAssets } from './assets.js';

describe('the built app as the server holds it', () => {
  it('maps / to index.html and each asset by its URL path, and nothing else', () => {
    const dir = tempDir();
    try {
      mkdirSync(join(dir.path, 'assets'));
      writeFileSync(join(dir.path, 'index.html'), '<div id="root"></div>');
      writeFileSync(join(dir.path, 'assets', 'index-1.js'), 'x');
      writeFileSync(join(dir.path, 'assets', 'index-1.css'), 'y');
      writeFileSync(join(dir.path, 'assets', 'notes.txt'), 'not served');
      const assets = loadAssets(dir.path);
      expect([...assets.keys()].sort()).toEqual(['/', '/assets/index-1.css', '/assets/index-1.js']);
      expect(assets.get('/assets/index-1.js')?.type).toBe('text/javascript; charset=utf-8');
    } finally {
      dir.cleanup();
    }
  });

  it('says how to build the app when it is not built', () => {
    const page = loadAssets('/nonexistent/app').get('/');
    expect(page?.body.toString()).toMatch(/not built in this installation: run <code>npm run build<\/code>/);
  });
});
