import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as NodeFs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import { defaultTranscriptFiles, transcriptFiles } from './files.js';

// A folder this user may not read: root reads any a test could chmod, so the refusal is simulated.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const readdirSync = (path: unknown, ...rest: unknown[]): unknown => {
    if (String(path).endsWith('/locked'))
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${String(path)}'`), { code: 'EACCES', path: String(path) });
    return (fs.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
  };
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

describe('transcript files', () => {
  const dirs: { cleanup: () => void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it('reads linked transcripts and linked project folders, and walks no linked folder (a link back up)', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = join(dir.path, 'elsewhere');
    mkdirSync(join(store, 'proj'), { recursive: true });
    writeFileSync(join(store, 's1.jsonl'), '{}\n');
    writeFileSync(join(store, 'proj', 's2.jsonl'), '{}\n');
    const projects = join(dir.path, 'home', '.claude', 'projects');
    mkdirSync(join(projects, '-work-app'), { recursive: true });
    symlinkSync(join(store, 's1.jsonl'), join(projects, '-work-app', 's1.jsonl'));
    symlinkSync(join(store, 'proj'), join(projects, '-work-lib'));
    symlinkSync(join(store, 'nowhere.jsonl'), join(projects, '-work-app', 'dangling.jsonl'));
    symlinkSync(projects, join(projects, '-work-app', 'loop'));
    expect(defaultTranscriptFiles(join(dir.path, 'home'))).toEqual([
      join(projects, '-work-app', 's1.jsonl'),
      join(projects, '-work-lib', 's2.jsonl'),
    ]);
    expect(transcriptFiles([projects]).files).toEqual([join(projects, '-work-app', 's1.jsonl')]);
  });

  it('throws the permission error of a folder it cannot read, rather than call the folder missing', () => {
    const dir = tempDir();
    dirs.push(dir);
    mkdirSync(join(dir.path, 'in', 'locked'), { recursive: true });
    expect(() => transcriptFiles([join(dir.path, 'in')])).toThrow(/EACCES/);
    expect(transcriptFiles([join(dir.path, 'gone')]).missing).toEqual([join(dir.path, 'gone')]);
  });
});
