/**
 * The applied Dash theme (admin → Themes): its stylesheet is the same-origin link
 * `#dash-theme-css` in index.html (/theme/active.css, custom properties only, so it works under
 * a strict CSP), and its manifest sets data attributes on <html> for skin-aware styles.
 */
const LINK_ID = 'dash-theme-css';
let generation = 0;

interface ActiveManifest {
  id: string;
  skin?: {
    admin?: { shell?: string; frame?: string };
    dashboard?: { summary?: string; density?: string };
  };
}

function setAttributes(manifest: ActiveManifest | null): void {
  const root = document.documentElement.dataset;
  const values: Record<string, string | undefined> = {
    theme: manifest?.id,
    shell: manifest?.skin?.admin?.shell,
    frame: manifest?.skin?.admin?.frame,
    summary: manifest?.skin?.dashboard?.summary,
    density: manifest?.skin?.dashboard?.density,
  };
  for (const [key, value] of Object.entries(values)) {
    if (value) root[key] = value;
    else delete root[key];
  }
}

async function fetchManifest(): Promise<void> {
  try {
    const res = await fetch('/theme/active.json', { cache: 'no-store' });
    setAttributes(res.ok ? ((await res.json()) as ActiveManifest) : null);
  } catch {
    setAttributes(null);
  }
}

/** Whether the theme link holds any rule; false while unknown (not loaded, not a browser). */
function stylesheetHasRules(): boolean {
  const link = document.getElementById(LINK_ID) as HTMLLinkElement | null;
  try {
    return (link?.sheet?.cssRules.length ?? 0) > 0;
  } catch {
    return false;
  }
}

/**
 * At start: the theme link in <head> has loaded before any module runs. An empty stylesheet
 * means Dash's own look, whose active.json would be a 404 (a console error on every page), so
 * the manifest is only asked for when a theme is actually in effect.
 */
export async function loadActiveTheme(): Promise<void> {
  if (stylesheetHasRules()) await fetchManifest();
  else setAttributes(null);
}

/**
 * After a theme change: fetch the stylesheet again (a new URL defeats any cache) and, when a
 * theme other than the default look was applied, its manifest.
 */
export async function reloadActiveTheme(hasManifest: boolean): Promise<void> {
  generation += 1;
  let link = document.getElementById(LINK_ID) as HTMLLinkElement | null;
  if (!link) {
    link = document.createElement('link');
    link.id = LINK_ID;
    link.rel = 'stylesheet';
    document.head.appendChild(link);
  }
  link.href = `/theme/active.css?v=${generation}`;
  if (hasManifest) await fetchManifest();
  else setAttributes(null);
}
