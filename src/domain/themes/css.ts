import { THEME_LIMITS } from './limits.js';
import { invalidPackage } from './package-error.js';

/** Custom properties of one theme stylesheet, split by colour scheme, in source order. */
export interface ThemeTokens {
  light: Map<string, string>;
  dark: Map<string, string>;
}

const NAME_RE = /^--[a-z0-9][a-z0-9-]*$/;
// eslint-disable-next-line no-control-regex
const VALUE_CONTROL_RE = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f]/;
const FORBIDDEN_FN_RE = /(?<![a-z0-9_-])(url|image-set|-webkit-image-set|src|expression)\s*\(/;
const IMPORTANT_RE = /!\s*important/;
const ESCAPE_RE = /\\([0-9a-f]{1,6})[ \t\n\r\f]?|\\([\s\S])/gi;

/** Resolves CSS escapes (`\75 rl(` is `url(`) so the forbidden-function check cannot be dodged. */
function unescapeCss(text: string): string {
  return text.replace(ESCAPE_RE, (_m, hex: string | undefined, ch: string | undefined) => {
    if (hex === undefined) return ch ?? '';
    const cp = parseInt(hex, 16);
    return cp === 0 || cp > 0x10ffff ? '\ufffd' : String.fromCodePoint(cp);
  });
}

/** Index just past the string starting at `start` (a quote), or throws when it never ends. */
function skipString(css: string, start: number, file: string): number {
  const quote = css[start];
  let i = start + 1;
  while (i < css.length) {
    const c = css[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else if (c === '\n') break;
    else i += 1;
  }
  throw invalidPackage(`${file}: unterminated string`);
}

/** Replaces comments with a space (outside strings); strings are kept byte for byte. */
function stripComments(css: string, file: string): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = skipString(css, i, file);
      out += css.slice(i, end);
      i = end;
    } else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end === -1) throw invalidPackage(`${file}: unterminated comment`);
      out += ' ';
      i = end + 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The text with every quoted string emptied, for checks that strings are exempt from. */
function withoutStrings(value: string, file: string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === '"' || c === "'") {
      i = skipString(value, i, file);
      out += '""';
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function allowedSelectors(themeId: string): { light: Set<string>; dark: Set<string> } {
  const light = new Set([':root']);
  const dark = new Set([':root.dark']);
  for (const q of ["'", '"']) {
    const attr = `[data-theme=${q}${themeId}${q}]`;
    light.add(`:root${attr}`);
    dark.add(`:root.dark${attr}`);
    dark.add(`:root${attr}.dark`);
  }
  return { light, dark };
}

function schemeOf(selectorList: string, themeId: string, file: string): 'light' | 'dark' {
  const allowed = allowedSelectors(themeId);
  const schemes = new Set<'light' | 'dark'>();
  for (const raw of selectorList.split(',')) {
    const sel = raw.trim();
    if (allowed.light.has(sel)) schemes.add('light');
    else if (allowed.dark.has(sel)) schemes.add('dark');
    else {
      throw invalidPackage(
        `${file}: selector "${sel.slice(0, 80)}" is not allowed (only :root, :root.dark, optionally with [data-theme='${themeId}'])`,
      );
    }
  }
  if (schemes.size !== 1) {
    throw invalidPackage(`${file}: a selector list may not mix light and dark selectors`);
  }
  return [...schemes][0] ?? 'light';
}

function checkDeclaration(decl: string, file: string): [string, string] {
  const colon = decl.indexOf(':');
  if (decl.startsWith('@')) throw invalidPackage(`${file}: at-rules are not allowed`);
  if (colon === -1) throw invalidPackage(`${file}: "${decl.slice(0, 80)}" is not a declaration`);
  const name = decl.slice(0, colon).trim();
  const value = decl.slice(colon + 1).trim();
  if (!NAME_RE.test(name)) {
    throw invalidPackage(
      `${file}: "${name.slice(0, 80)}" is not a custom property (--[a-z0-9][a-z0-9-]*)`,
    );
  }
  if (Buffer.byteLength(name) > THEME_LIMITS.cssNameBytes) {
    throw invalidPackage(`${file}: property name ${name.slice(0, 40)}… is too long`);
  }
  if (value === '') throw invalidPackage(`${file}: ${name} has an empty value`);
  if ([...value].length > THEME_LIMITS.cssValueChars) {
    throw invalidPackage(`${file}: value of ${name} is longer than 4096 characters`);
  }
  if (VALUE_CONTROL_RE.test(value)) {
    throw invalidPackage(`${file}: value of ${name} contains control characters`);
  }
  const bare = unescapeCss(withoutStrings(value, file)).toLowerCase();
  if (IMPORTANT_RE.test(bare)) throw invalidPackage(`${file}: !important is not allowed`);
  const fn = FORBIDDEN_FN_RE.exec(bare);
  if (fn) throw invalidPackage(`${file}: ${fn[1] ?? ''}() is not allowed in ${name}`);
  return [name, value];
}

/** Splits a declaration block at top-level semicolons; nested blocks are refused. */
function declarationsOf(block: string, file: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < block.length) {
    const c = block[i];
    if (c === '"' || c === "'") {
      i = skipString(block, i, file);
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '(' || c === '[') depth += 1;
    else if (c === ')' || c === ']') {
      if (depth === 0) throw invalidPackage(`${file}: unbalanced brackets`);
      depth -= 1;
    } else if (c === '{') throw invalidPackage(`${file}: nested rules are not allowed`);
    else if (c === ';' && depth === 0) {
      out.push(block.slice(start, i));
      start = i + 1;
    }
    i += 1;
  }
  if (depth !== 0) throw invalidPackage(`${file}: unbalanced brackets`);
  out.push(block.slice(start));
  return out.map((d) => d.trim()).filter((d) => d !== '');
}

/** Index of the `}` closing the block opened just before `start`. */
function blockEnd(css: string, start: number, file: string): number {
  let i = start;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") i = skipString(css, i, file);
    else if (c === '\\') i += 2;
    else if (c === '}') return i;
    else i += 1;
  }
  throw invalidPackage(`${file}: unterminated block`);
}

/**
 * Validates a theme stylesheet (reference §9.3): only :root / :root.dark rules holding custom
 * properties, no at-rules, nesting, !important or resource-loading functions. Returns its tokens.
 */
export function parseThemeCss(bytes: Uint8Array, file: string, themeId: string): ThemeTokens {
  if (bytes.length > THEME_LIMITS.cssBytes) throw invalidPackage(`${file} is larger than 1 MiB`);
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidPackage(`${file} is not valid UTF-8`);
  }
  const css = stripComments(source.replace(/^\ufeff/, ''), file);
  const tokens: ThemeTokens = { light: new Map(), dark: new Map() };
  let count = 0;
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const head = (open === -1 ? css.slice(i) : css.slice(i, open)).trim();
    if (head === '' && open === -1) break;
    if (head.includes('@')) throw invalidPackage(`${file}: at-rules are not allowed`);
    if (open === -1 || /[;}]/.test(head)) {
      throw invalidPackage(`${file}: expected a rule, found "${head.slice(0, 80)}"`);
    }
    const scheme = schemeOf(head, themeId, file);
    const end = blockEnd(css, open + 1, file);
    for (const decl of declarationsOf(css.slice(open + 1, end), file)) {
      const [name, value] = checkDeclaration(decl, file);
      count += 1;
      if (count > THEME_LIMITS.cssDeclarations) {
        throw invalidPackage(`${file} has more than ${THEME_LIMITS.cssDeclarations} declarations`);
      }
      tokens[scheme].delete(name);
      tokens[scheme].set(name, value);
    }
    i = end + 1;
  }
  return tokens;
}

export function declarationCount(tokens: ThemeTokens): number {
  return tokens.light.size + tokens.dark.size;
}

/** Canonical served stylesheet: one :root block, then one :root.dark block; later files win. */
export function renderThemeCss(parts: readonly ThemeTokens[]): string {
  const light = new Map<string, string>();
  const dark = new Map<string, string>();
  for (const p of parts) {
    for (const [k, v] of p.light) light.set(k, v);
    for (const [k, v] of p.dark) dark.set(k, v);
  }
  const block = (sel: string, m: Map<string, string>) =>
    m.size === 0 ? '' : `${sel}{${[...m].map(([k, v]) => `${k}:${v}`).join(';')}}\n`;
  return block(':root', light) + block(':root.dark', dark);
}
