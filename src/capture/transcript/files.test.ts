import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/cli.js';
import { defaultTranscriptFiles, transcriptFiles } from './files.js';

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
});
