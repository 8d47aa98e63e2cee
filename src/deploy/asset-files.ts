import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { AgentAssets, AssetInfo } from '../domain/nodes/upgrades.js';

export interface LocatedAsset {
  /** Real path of the file, inside the deploy directory. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** Errors that mean "no such file": names too long for the file system or symlink loops too. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);
/** The longest file name (in bytes) and path common file systems hold. */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 4095;

function isMissing(err: unknown): boolean {
  return MISSING.has((err as NodeJS.ErrnoException).code ?? '');
}

/** Splits a relative asset path, refusing anything that could leave the directory. */
function safeSegments(relPath: string): string[] | null {
  if (Buffer.byteLength(relPath) > MAX_PATH_BYTES) return null;
  const segments = relPath.split('/');
  const ok = segments.every(
    (s) =>
      s !== '' &&
      s !== '.' &&
      s !== '..' &&
      !s.includes('\\') &&
      !s.includes('\0') &&
      Buffer.byteLength(s) <= MAX_SEGMENT_BYTES,
  );
  return ok ? segments : null;
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/**
 * Agent builds and helper files under `$DASH_HOME/deploy`. Only regular files whose real path
 * lies inside the directory are ever located, so neither `..` nor a symlink can lead outside.
 * Digests are computed once per file version (path, size and mtime) and cached.
 */
export class AgentAssetFiles implements AgentAssets {
  private readonly digests = new Map<
    string,
    { size: number; mtimeMs: number; sha256: Promise<string> }
  >();

  constructor(readonly root: string) {}

  /** The file behind a relative asset path, or null when there is none. */
  async locate(relPath: string): Promise<LocatedAsset | null> {
    const segments = safeSegments(relPath);
    if (!segments) return null;
    try {
      const root = await realpath(this.root);
      const path = await realpath(join(root, ...segments));
      if (!path.startsWith(root + sep)) return null;
      const st = await stat(path);
      if (!st.isFile()) return null;
      return { path, size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async describe(relPath: string): Promise<AssetInfo | null> {
    const file = await this.locate(relPath);
    if (!file) return null;
    let cached = this.digests.get(file.path);
    if (!cached || cached.size !== file.size || cached.mtimeMs !== file.mtimeMs) {
      const entry = { size: file.size, mtimeMs: file.mtimeMs, sha256: sha256File(file.path) };
      entry.sha256.catch(() => {
        if (this.digests.get(file.path) === entry) this.digests.delete(file.path);
      });
      this.digests.set(file.path, entry);
      cached = entry;
    }
    return { sha256: await cached.sha256, size: file.size };
  }
}
