import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { writeLoginPage } from './main.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('homunculus-login-page-')));
afterEach(() => dir.cleanup());

describe('the login page the browser is opened on', () => {
  it('is owner-only, one per port, and goes on to the link', () => {
    const a = writeLoginPage(dir.path, 7422, 'http://127.0.0.1:7422/#token=abc');
    const b = writeLoginPage(dir.path, 7423, 'http://127.0.0.1:7423/#token=def');
    expect(a).not.toBe(b);
    expect(statSync(a).mode & 0o777).toBe(0o600);
    expect(readFileSync(a, 'utf8')).toContain('location.replace("http://127.0.0.1:7422/#token=abc")');
    expect(readFileSync(b, 'utf8')).toContain('#token=def');
  });

  it('never writes through a link put in its place', () => {
    const victim = join(dir.path, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dir.path, 'dashboard-login-7422.html'));
    const page = writeLoginPage(dir.path, 7422, 'http://127.0.0.1:7422/#token=abc');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(statSync(victim).mode & 0o777).not.toBe(0o600);
    expect(statSync(page).isFile()).toBe(true);
  });
});
