/**
 * What `init` must remember to undo itself: for each settings file it edited, whether it
 * created the file and the original text. Kept under the Homunculus home (`install/`), never
 * beside the user's files. Older versions kept `<file>.homunculus-backup` and
 * `<file>.homunculus-created` there; they are still read, and removed once replaced.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, ensureDir } from '../../core/fs.js';

const LEGACY_BACKUP = '.homunculus-backup';
const LEGACY_CREATED = '.homunculus-created';

export interface InstallRecord {
  file: string;
  /** The file did not exist before install: uninstall may delete it when only our entries are left. */
  created: boolean;
  /** The text before the first install, to give back byte for byte when nothing else changed since. */
  original?: string;
  /** Its folder did not exist either: uninstall may remove it once empty (never a folder the user had). */
  dir_created?: boolean;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function readQuietly(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export class InstallState {
  /** `dir` is `<home>/install`. */
  constructor(readonly dir: string) {}

  private recordPath(file: string): string {
    return join(this.dir, `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);
  }

  get(file: string): InstallRecord | undefined {
    const text = readQuietly(this.recordPath(file));
    if (text !== undefined) {
      try {
        const r = JSON.parse(text) as Partial<InstallRecord>;
        if (r.file === file)
          return {
            file,
            created: r.created === true,
            ...(typeof r.original === 'string' ? { original: r.original } : {}),
            ...(r.dir_created === true ? { dir_created: true } : {}),
          };
      } catch {
        // A damaged record: treat as none; uninstall still removes our entries.
      }
    }
    const original = readQuietly(file + LEGACY_BACKUP);
    const created = existsSync(file + LEGACY_CREATED);
    return original !== undefined || created ? { file, created, ...(original !== undefined ? { original } : {}) } : undefined;
  }

  put(record: InstallRecord): void {
    ensureDir(this.dir);
    writeFileAtomic(this.recordPath(record.file), `${JSON.stringify(record)}\n`);
    this.removeLegacy(record.file);
  }

  /** Every file an install record names (older versions' records beside the files are not listed). */
  files(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names.flatMap((n) => {
      try {
        const file = (JSON.parse(readFileSync(join(this.dir, n), 'utf8')) as Partial<InstallRecord>).file;
        return typeof file === 'string' ? [file] : [];
      } catch {
        return [];
      }
    });
  }

  remove(file: string): void {
    removeQuietly(this.recordPath(file));
    this.removeLegacy(file);
  }

  private removeLegacy(file: string): void {
    removeQuietly(file + LEGACY_BACKUP);
    removeQuietly(file + LEGACY_CREATED);
  }
}
