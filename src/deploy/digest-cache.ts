import { createHash } from 'node:crypto';
import {
  closeSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';

interface Entry {
  size: number;
  mtimeMs: number;
  ino: number;
  sha256: string;
}

const CHUNK = 1024 * 1024;

/**
 * SHA-256 digests of large files (the agent builds, ~100 MB each), kept in a JSON file and
 * trusted while a file's size, mtime and inode are unchanged: `dash serve` compares up to eight
 * builds with their published copies at every start, and would otherwise read them all. Files
 * are replaced by rename (new inode), so a changed build is never mistaken for the old one.
 */
export class DigestCache {
  private readonly entries = new Map<string, Entry>();
  private readonly used = new Set<string>();
  /** Files actually read and hashed since this cache was opened. */
  hashed = 0;

  constructor(private readonly file: string) {
    try {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
      for (const [path, e] of Object.entries(doc)) {
        if (typeof e?.sha256 === 'string' && /^[0-9a-f]{64}$/.test(e.sha256)) {
          this.entries.set(path, e);
        }
      }
    } catch {
      // No cache yet, or an unreadable one: every digest is computed again.
    }
  }

  /** The digest of a file, from the cache when its size, mtime and inode still match. */
  digest(path: string): string {
    const st = statSync(path);
    this.used.add(path);
    const e = this.entries.get(path);
    if (e && e.size === st.size && e.mtimeMs === st.mtimeMs && e.ino === st.ino) return e.sha256;
    const sha256 = hashFile(path);
    this.hashed++;
    this.entries.set(path, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 });
    return sha256;
  }

  /** Records a digest already known (a file just copied from one whose digest is known). */
  remember(path: string, sha256: string): void {
    const st = statSync(path);
    this.used.add(path);
    this.entries.set(path, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, sha256 });
  }

  /** Writes the entries used since opening (others are dropped), atomically. */
  save(): void {
    const doc = Object.fromEntries([...this.entries].filter(([p]) => this.used.has(p)));
    const temp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(temp, JSON.stringify(doc, null, 1));
    renameSync(temp, this.file);
  }
}

/** SHA-256 of a file read in 1 MiB pieces (never the whole file in memory). */
function hashFile(path: string): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
