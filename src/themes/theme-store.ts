import { randomBytes } from 'node:crypto';
import {
  mkdir,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { ALLOWED_FILES } from '../domain/themes/limits.js';
import { isThemeId } from '../domain/themes/manifest.js';

/** When a stored theme was first uploaded and last replaced (epoch ms). */
export interface ThemeMeta {
  createdAt: number;
  updatedAt: number;
}

export interface InstalledTheme {
  /** Real directory of the installed version; changes on every replacement. */
  dir: string;
  files: Map<string, Buffer>;
  meta: ThemeMeta;
}

const META_FILE = 'meta.json';
const ACTIVE_FILE = 'active';

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Uploaded themes as files under `$DASH_HOME/themes` (no database table: a theme is a handful
 * of files that are served as files, and a copy of the folder is a complete backup):
 *
 * - `store/<id>.<random>/` one immutable version of a theme (its package files + meta.json);
 * - `installed/<id>` a symlink to the current version, replaced with one rename so readers see
 *   the old or the new theme, never a mix;
 * - `active` the applied theme id (`default` when absent);
 * - `tmp/` staging, emptied at start.
 */
export class ThemeStore {
  private readonly installedDir: string;
  private readonly storeDir: string;
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.installedDir = join(root, 'installed');
    this.storeDir = join(root, 'store');
    this.tmpDir = join(root, 'tmp');
  }

  /** Creates the folders and removes what an interrupted write left behind. */
  async prepare(): Promise<void> {
    await rm(this.tmpDir, { recursive: true, force: true });
    for (const d of [this.installedDir, this.storeDir, this.tmpDir]) {
      await mkdir(d, { recursive: true });
    }
    const used = new Set<string>();
    for (const id of await this.listIds()) {
      try {
        used.add(await readlink(join(this.installedDir, id)));
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    }
    for (const name of await readdir(this.storeDir)) {
      if (!used.has(join('..', 'store', name))) {
        await rm(join(this.storeDir, name), { recursive: true, force: true });
      }
    }
  }

  async listIds(): Promise<string[]> {
    try {
      return (await readdir(this.installedDir)).filter(isThemeId);
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }

  async has(id: string): Promise<boolean> {
    try {
      await readlink(join(this.installedDir, id));
      return true;
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'EINVAL') return false;
      throw err;
    }
  }

  /** The installed version of `id`, null when it is not installed or its files are gone. */
  async read(id: string): Promise<InstalledTheme | null> {
    let dir: string;
    try {
      dir = await realpath(join(this.installedDir, id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const files = new Map<string, Buffer>();
    for (const name of await readdir(dir)) {
      if (ALLOWED_FILES.has(name)) files.set(name, await readFile(join(dir, name)));
    }
    let meta: ThemeMeta = { createdAt: 0, updatedAt: 0 };
    try {
      meta = JSON.parse(await readFile(join(dir, META_FILE), 'utf8')) as ThemeMeta;
    } catch (err) {
      if (!isMissing(err) && !(err instanceof SyntaxError)) throw err;
    }
    return { dir, files, meta };
  }

  /** Path of one file of the installed version, for streaming (previews). */
  async filePath(id: string, name: string): Promise<string | null> {
    try {
      return await realpath(join(this.installedDir, id, name));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** Writes a new version in full, then points `installed/<id>` at it with one rename. */
  async install(id: string, files: Map<string, Buffer>, meta: ThemeMeta): Promise<void> {
    const version = `${id}.${randomBytes(6).toString('hex')}`;
    const staging = join(this.tmpDir, version);
    await mkdir(staging, { recursive: true });
    try {
      for (const [name, bytes] of files) {
        await writeFile(join(staging, name), bytes, { flag: 'wx', flush: true });
      }
      await writeFile(join(staging, META_FILE), JSON.stringify(meta), { flush: true });
      await rename(staging, join(this.storeDir, version));
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      throw err;
    }
    const link = join(this.tmpDir, `${version}.link`);
    let previous: string | null = null;
    try {
      previous = await readlink(join(this.installedDir, id));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    try {
      await symlink(join('..', 'store', version), link);
      await rename(link, join(this.installedDir, id));
    } catch (err) {
      await rm(link, { force: true });
      await rm(join(this.storeDir, version), { recursive: true, force: true });
      throw err;
    }
    if (previous) await rm(join(this.installedDir, previous), { recursive: true, force: true });
  }

  async remove(id: string): Promise<void> {
    const linkPath = join(this.installedDir, id);
    const target = await readlink(linkPath);
    await unlink(linkPath);
    await rm(join(this.installedDir, target), { recursive: true, force: true });
  }

  async readActive(): Promise<string | null> {
    try {
      const id = (await readFile(join(this.root, ACTIVE_FILE), 'utf8')).trim();
      return id === '' ? null : id;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async writeActive(id: string): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, `active.${randomBytes(6).toString('hex')}`);
    await writeFile(tmp, `${id}\n`, { flush: true });
    await rename(tmp, join(this.root, ACTIVE_FILE));
  }
}
