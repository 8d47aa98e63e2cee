import { AppError } from '../errors/app-error.js';
import type { Clock } from '../platform/clock.js';
import { formatRfc3339Seconds } from '../platform/rfc3339.js';
import { BUILTIN_THEMES, BUILTIN_THEME_IDS } from '../domain/themes/builtin.js';
import { PREVIEW_FILE } from '../domain/themes/limits.js';
import { DEFAULT_THEME_ID, isThemeId, type ThemeManifest } from '../domain/themes/manifest.js';
import type { ThemeListItem, ThemeWarning } from '../protocol/theme.js';
import type { ThemeStore } from './theme-store.js';
import { validateThemeFiles } from './theme-package.js';
import { readThemeZip } from './zip-reader.js';

interface LoadedTheme {
  manifest: ThemeManifest;
  css: string;
  hasPreview: boolean;
  createdAt: number;
  updatedAt: number;
}

type Lookup =
  | { state: 'ok'; theme: LoadedTheme }
  | { state: 'missing' }
  | { state: 'broken'; createdAt: number; updatedAt: number };

export interface ThemeList {
  items: ThemeListItem[];
  warning?: ThemeWarning;
}

/** What /theme/active.css and /theme/active.json serve. */
export interface ActiveTheme {
  css: string;
  manifest: ThemeManifest | null;
}

const BUILTIN_CSS = '';

function storageError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('theme_storage_unavailable', undefined, { cause: err });
}

function item(
  manifest: ThemeManifest,
  fields: Partial<ThemeListItem> & Pick<ThemeListItem, 'active'>,
): ThemeListItem {
  return {
    id: manifest.id,
    name: manifest.name,
    version: manifest.version,
    author: manifest.author,
    description: manifest.description,
    skin: manifest.skin,
    format_version: 1,
    deprecated: true,
    built_in: false,
    deletable: !fields.active,
    missing: false,
    broken: false,
    has_preview: false,
    created_at: null,
    updated_at: null,
    ...fields,
  };
}

/** A list entry for an active theme that cannot be read, so the admin sees what is wrong. */
function placeholder(id: string, state: 'missing' | 'broken'): ThemeManifest {
  return {
    id,
    name: id,
    version: '',
    author: '',
    description: state === 'missing' ? 'theme files are missing' : 'theme files are invalid',
    skin: BUILTIN_THEMES[0]?.skin ?? {
      admin: { shell: 'topbar', frame: 'flat' },
      dashboard: { summary: 'strip', density: 'compact' },
    },
  };
}

/**
 * Themes (reference §9.3): the built-in ones, uploaded packages kept by ThemeStore, and the
 * applied one. Changes run one at a time; the served CSS of each stored version is computed
 * once (versions are immutable, so the cache is keyed by version directory).
 */
export class ThemesService {
  private readonly loaded = new Map<string, Lookup>();
  private active: string | undefined;
  private ready: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: ThemeStore,
    private readonly clock: Clock,
  ) {}

  private prepare(): Promise<void> {
    this.ready ??= this.store.prepare().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  /** Runs one change at a time so an upload, apply and delete never interleave. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async activeId(): Promise<string> {
    if (this.active === undefined) {
      this.active = (await this.store.readActive()) ?? DEFAULT_THEME_ID;
    }
    return this.active;
  }

  private async lookup(id: string): Promise<Lookup> {
    const installed = await this.store.read(id);
    if (!installed) return { state: 'missing' };
    const cached = this.loaded.get(installed.dir);
    if (cached) return cached;
    let result: Lookup;
    try {
      const valid = validateThemeFiles(installed.files, BUILTIN_THEME_IDS);
      if (valid.manifest.id !== id) throw new Error('theme id does not match its folder');
      result = {
        state: 'ok',
        theme: {
          manifest: valid.manifest,
          css: valid.css,
          hasPreview: installed.files.has(PREVIEW_FILE),
          createdAt: installed.meta.createdAt,
          updatedAt: installed.meta.updatedAt,
        },
      };
    } catch {
      result = {
        state: 'broken',
        createdAt: installed.meta.createdAt,
        updatedAt: installed.meta.updatedAt,
      };
    }
    this.loaded.set(installed.dir, result);
    return result;
  }

  private customItem(id: string, found: Lookup, active: boolean): ThemeListItem {
    if (found.state === 'ok') {
      const t = found.theme;
      return item(t.manifest, {
        active,
        has_preview: t.hasPreview,
        created_at: formatRfc3339Seconds(t.createdAt),
        updated_at: formatRfc3339Seconds(t.updatedAt),
      });
    }
    return item(placeholder(id, found.state), {
      active,
      missing: found.state === 'missing',
      broken: found.state === 'broken',
      ...(found.state === 'broken'
        ? {
            created_at: formatRfc3339Seconds(found.createdAt),
            updated_at: formatRfc3339Seconds(found.updatedAt),
          }
        : {}),
    });
  }

  /** Built-ins first, then uploaded themes by name and id; a missing active theme is listed too. */
  async list(): Promise<ThemeList> {
    try {
      await this.prepare();
      const active = await this.activeId();
      const builtins = BUILTIN_THEMES.map((m) =>
        item(m, { active: m.id === active, built_in: true, deletable: false }),
      );
      const custom: ThemeListItem[] = [];
      let warning: ThemeWarning | undefined;
      const ids = await this.store.listIds();
      if (
        active !== DEFAULT_THEME_ID &&
        !BUILTIN_THEME_IDS.includes(active) &&
        !ids.includes(active)
      ) {
        ids.push(active);
      }
      for (const id of ids) {
        const found = await this.lookup(id);
        if (id === active && found.state !== 'ok') {
          warning = found.state === 'missing' ? 'theme_active_missing' : 'theme_active_broken';
        }
        custom.push(this.customItem(id, found, id === active));
      }
      custom.sort((a, b) =>
        a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1,
      );
      return { items: [...builtins, ...custom], ...(warning ? { warning } : {}) };
    } catch (err) {
      throw storageError(err);
    }
  }

  /** Validates a zip completely in memory, then stores it (replacing a same-id theme). */
  async upload(zip: Buffer): Promise<ThemeListItem> {
    const files = await readThemeZip(zip);
    const valid = validateThemeFiles(files, BUILTIN_THEME_IDS);
    const id = valid.manifest.id;
    return this.exclusive(async () => {
      try {
        await this.prepare();
        const now = this.clock.now();
        const before = await this.store.read(id);
        const createdAt = before && before.meta.createdAt > 0 ? before.meta.createdAt : now;
        await this.store.install(id, valid.files, { createdAt, updatedAt: now });
        const found = await this.lookup(id);
        return this.customItem(id, found, id === (await this.activeId()));
      } catch (err) {
        throw storageError(err);
      }
    });
  }

  /** Applies `default`, a built-in or a stored valid theme. */
  async apply(id: string): Promise<void> {
    if (!isThemeId(id)) throw new AppError('invalid_theme_id');
    return this.exclusive(async () => {
      try {
        await this.prepare();
        if (id !== DEFAULT_THEME_ID && !BUILTIN_THEME_IDS.includes(id)) {
          const found = await this.lookup(id);
          if (found.state === 'missing') throw new AppError('not_found', 'theme not found');
          if (found.state === 'broken') {
            throw new AppError('theme_unavailable', 'the theme files fail validation');
          }
        }
        await this.store.writeActive(id);
        this.active = id;
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('theme_unavailable', undefined, { cause: err });
      }
    });
  }

  async remove(id: string): Promise<void> {
    if (!isThemeId(id)) throw new AppError('invalid_theme_id');
    if (id === DEFAULT_THEME_ID || BUILTIN_THEME_IDS.includes(id)) {
      throw new AppError('builtin_theme_not_deletable');
    }
    return this.exclusive(async () => {
      try {
        await this.prepare();
        if (!(await this.store.has(id))) throw new AppError('not_found', 'theme not found');
        if ((await this.activeId()) === id) throw new AppError('active_theme_not_deletable');
        await this.store.remove(id);
      } catch (err) {
        throw storageError(err);
      }
    });
  }

  /**
   * The applied theme's CSS and manifest. `default`, a built-in, and an active theme that is
   * missing or broken all serve empty CSS, so Dash's own look shows.
   */
  async current(): Promise<ActiveTheme> {
    await this.prepare();
    const id = await this.activeId();
    if (id === DEFAULT_THEME_ID) return { css: '', manifest: null };
    const builtin = BUILTIN_THEMES.find((t) => t.id === id);
    if (builtin) return { css: BUILTIN_CSS, manifest: builtin };
    const found = await this.lookup(id);
    return found.state === 'ok'
      ? { css: found.theme.css, manifest: found.theme.manifest }
      : { css: '', manifest: null };
  }

  /** File path of a stored theme's preview.png, null when there is none. */
  async previewPath(id: string): Promise<string | null> {
    if (!isThemeId(id) || BUILTIN_THEME_IDS.includes(id) || id === DEFAULT_THEME_ID) return null;
    await this.prepare();
    return this.store.filePath(id, PREVIEW_FILE);
  }
}
