import { en, type Strings } from './en';
import { zhCN } from './zh-CN';

export type Lang = 'en' | 'zh-CN';
export const LANGS: readonly Lang[] = ['en', 'zh-CN'];

const CATALOGS: Record<Lang, Strings> = { en, 'zh-CN': zhCN };
const KEY = 'dash.lang';

/**
 * The saved choice, else the first browser language we have: any Chinese except the
 * traditional-script variants (zh-TW, zh-HK, zh-MO, zh-Hant) reads Simplified Chinese.
 */
export function pickLang(saved: string | null, browser: readonly string[]): Lang {
  if (saved === 'en' || saved === 'zh-CN') return saved;
  for (const raw of browser) {
    const tag = raw.toLowerCase();
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'zh' || tag.startsWith('zh-')) {
      if (/^zh-(tw|hk|mo|hant)/.test(tag)) continue;
      return 'zh-CN';
    }
  }
  return 'en';
}

function savedLang(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function browserLangs(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language ?? ''];
}

/** The language of this page load. */
export const lang: Lang = pickLang(savedLang(), browserLangs());

/**
 * Active strings. Chosen once per page load: modules read them when they load, so a switch
 * is saved and the page reloads (setLang).
 */
export const s: Strings = CATALOGS[lang];

export function catalog(l: Lang): Strings {
  return CATALOGS[l];
}

/** Saves the choice and reloads the page in that language. */
export function setLang(next: Lang, reload: () => void = () => window.location.reload()): void {
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // storage disabled: the choice cannot outlive this page; reload would lose it
    return;
  }
  reload();
}
