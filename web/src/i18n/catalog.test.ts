import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zhCN } from './zh-CN';
import { enTraffic, trafficErrorsEn } from './en-traffic';
import { zhTraffic, trafficErrorsZh } from './zh-CN-traffic';
import { alertsEn } from './alerts.en';
import { alertsZh } from './alerts.zh-CN';
import { channelsEn } from './channels.en';
import { channelsZh } from './channels.zh-CN';
import { dashUpdateEn, dashUpdateErrorsEn } from './dash-update.en';
import { dashUpdateErrorsZh, dashUpdateZh } from './dash-update.zh-CN';
import { storageEn } from './storage.en';
import { storageZh } from './storage.zh-CN';
import { themesEn } from './themes.en';
import { themesZh } from './themes.zh-CN';
import { fleetEn } from './fleet.en';
import { fleetZh } from './fleet.zh-CN';
import { authEn } from './auth.en';
import { authZh } from './auth.zh-CN';
import { chartTitlesEn, chartsEn } from './charts.en';
import { chartTitlesZh, chartsZh } from './charts.zh-CN';
import { pickLang } from './index';

type Tree = Record<string, unknown>;

/** Every leaf path with its kind: "a.b.c" → "string" | "function/2" (arity). */
function shape(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'function') out.set(path, `function/${v.length}`);
    else if (v && typeof v === 'object') shape(v as Tree, path, out);
    else out.set(path, typeof v);
  }
  return out;
}

function leaves(tree: Tree, prefix = '', out: [string, unknown][] = []): [string, unknown][] {
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') leaves(v as Tree, path, out);
    else out.push([path, v]);
  }
  return out;
}

const PAIRS: [string, Tree, Tree][] = [
  ['en.ts', en, zhCN],
  ['en-traffic.ts', enTraffic, zhTraffic],
  ['en-traffic.ts errors', trafficErrorsEn, trafficErrorsZh],
  ['alerts.en.ts', alertsEn, alertsZh],
  ['channels.en.ts', channelsEn, channelsZh],
  ['dash-update.en.ts', dashUpdateEn, dashUpdateZh],
  ['dash-update.en.ts errors', dashUpdateErrorsEn, dashUpdateErrorsZh],
  ['storage.en.ts', storageEn, storageZh],
  ['themes.en.ts', themesEn, themesZh],
  ['fleet.en.ts', fleetEn, fleetZh],
  ['auth.en.ts', authEn, authZh],
  ['charts.en.ts', chartsEn, chartsZh],
  ['charts.en.ts titles', chartTitlesEn, chartTitlesZh],
];

/** Left as in English on purpose: names, protocols, units, technical terms. */
const SAME_OK = new Set([
  'Dash',
  'Webhook',
  'Telegram',
  'URL',
  'SMTP',
  'TCP',
  'UDP',
  'IOPS',
  'RAID',
  'P95',
  'CPU',
  'S.M.A.R.T.',
  'some',
  'full',
  'iowait',
  'steal',
  'English',
  '简体中文',
]);

describe('language catalogs', () => {
  it.each(PAIRS)('%s: the Chinese catalog has exactly the English keys', (_name, enCat, zhCat) => {
    const a = shape(enCat);
    const b = shape(zhCat);
    const missing = [...a.keys()].filter((k) => !b.has(k));
    const extra = [...b.keys()].filter((k) => !a.has(k));
    const kind = [...a.keys()].filter((k) => b.has(k) && a.get(k) !== b.get(k));
    expect({ missing, extra, kind }).toEqual({ missing: [], extra: [], kind: [] });
  });

  it('translates every text (no English left in the Chinese catalog)', () => {
    const enLeaves = new Map(leaves(en));
    const untranslated = leaves(zhCN).filter(([path, v]) => {
      if (typeof v !== 'string' || !/[A-Za-z]{3,}/.test(v)) return false;
      return v === enLeaves.get(path) && !SAME_OK.has(v);
    });
    expect(untranslated).toEqual([]);
  });

  it('formats with the same arguments', () => {
    expect(zhCN.dashboard.summary(3, 5, 2)).toBe('显示 3 / 5 个节点 · 2 个在线');
    expect(zhCN.fleet.lastSeen('5分钟')).toBe('最后上报于 5分钟 前');
    expect(zhCN.admin.nodes.agentBuildsMissing('make agents')).toContain('`make agents`');
  });
});

describe('pickLang', () => {
  it('prefers a saved choice', () => {
    expect(pickLang('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(pickLang('en', ['zh-CN'])).toBe('en');
  });

  it('takes the first browser language it has', () => {
    expect(pickLang(null, ['zh-CN', 'en'])).toBe('zh-CN');
    expect(pickLang(null, ['zh'])).toBe('zh-CN');
    expect(pickLang(null, ['zh-Hans-SG'])).toBe('zh-CN');
    expect(pickLang(null, ['en-GB', 'zh-CN'])).toBe('en');
    expect(pickLang(null, ['fr-FR', 'zh-CN'])).toBe('zh-CN');
  });

  it('does not take Traditional Chinese locales for Simplified Chinese', () => {
    expect(pickLang(null, ['zh-TW'])).toBe('en');
    expect(pickLang(null, ['zh-Hant-HK', 'en'])).toBe('en');
  });

  it('falls back to English, and ignores an unknown saved value', () => {
    expect(pickLang(null, [])).toBe('en');
    expect(pickLang('fr', ['de'])).toBe('en');
  });
});
