import type { ThemeManifest } from './manifest.js';

/**
 * Built-in themes ship with Dash and cannot be deleted. `operator` is Dash's own look: its
 * stylesheet is the web UI's, so the served theme CSS is empty (reference §9.3 lists it with
 * this skin).
 */
export const BUILTIN_THEMES: readonly ThemeManifest[] = [
  {
    id: 'operator',
    name: 'Operator',
    version: '1',
    author: 'Dash',
    description: "Dash's own look: the web UI's stylesheet, no overrides.",
    skin: {
      admin: { shell: 'topbar', frame: 'flat' },
      dashboard: { summary: 'strip', density: 'compact' },
    },
  },
];

export const BUILTIN_THEME_IDS: readonly string[] = BUILTIN_THEMES.map((t) => t.id);
