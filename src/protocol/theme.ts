/**
 * Wire shapes of the theme endpoints (reference §9.3), shared by the server, the web UI and
 * tests.
 */
export interface ThemeSkinWire {
  admin: { shell: 'sidebar' | 'topbar'; frame: 'layered' | 'flat' };
  dashboard: { summary: 'cards' | 'strip'; density: 'comfortable' | 'compact' };
}

/** theme.json as served by GET /theme/active.json. */
export interface ThemeManifestWire {
  id: string;
  name: string;
  version: string;
  author: string;
  description: string;
  skin: ThemeSkinWire;
}

/** One item of GET /api/admin/system/themes/ (and the body of a successful upload). */
export interface ThemeListItem extends ThemeManifestWire {
  format_version: 1;
  /** Legacy package-format marker of the reference; always true. */
  deprecated: boolean;
  built_in: boolean;
  active: boolean;
  deletable: boolean;
  /** The configured active theme has no files. */
  missing: boolean;
  /** The theme's files exist but fail validation. */
  broken: boolean;
  has_preview: boolean;
  /** RFC 3339, null for built-in themes. */
  created_at: string | null;
  updated_at: string | null;
}

/** Header set on the list when the configured active theme cannot be served. */
export const THEME_WARNING_HEADER = 'x-dash-warning';
export type ThemeWarning = 'theme_active_missing' | 'theme_active_broken';
