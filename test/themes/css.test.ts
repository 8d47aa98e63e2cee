import { describe, expect, it } from 'vitest';
import { parseThemeCss, renderThemeCss } from '../../src/domain/themes/css.js';

const parse = (css: string, id = 'ocean') => parseThemeCss(Buffer.from(css), 'tokens.css', id);
const refused = (css: string, reason: RegExp) =>
  expect(() => parse(css)).toThrow(
    expect.objectContaining({
      code: 'invalid_theme_package',
      message: expect.stringMatching(reason) as string,
    }),
  );

describe('theme CSS rules', () => {
  it('accepts :root, :root.dark and the data-theme forms, comments and quoted strings', () => {
    const tokens = parse(`
      /* light */ :root { --a: 1px; --font: "url(x) !important"; }
      :root[data-theme='ocean'], :root[data-theme="ocean"] { --b: rgb(1 2 3) }
      :root.dark[data-theme='ocean'] { --a: 2px }
      :root[data-theme="ocean"].dark { --c: calc(1px + 2px); }
    `);
    expect([...tokens.light]).toEqual([
      ['--a', '1px'],
      ['--font', '"url(x) !important"'],
      ['--b', 'rgb(1 2 3)'],
    ]);
    expect([...tokens.dark]).toEqual([
      ['--a', '2px'],
      ['--c', 'calc(1px + 2px)'],
    ]);
  });

  it.each([
    [":root[data-theme='other'] { --a: 1 }", /selector/],
    [':root .dark { --a: 1 }', /selector/],
    ['html { --a: 1 }', /selector/],
    [':root { --a: 1 } @media print { :root { --a: 2 } }', /at-rules/],
    [':root { @apply x; }', /at-rules/],
    [':root { --A: 1 }', /custom property/],
    [`:root { --${'x'.repeat(127)}: 1 }`, /too long/],
    [':root { --a: }', /empty value/],
    [`:root { --a: ${'x'.repeat(4097)} }`, /4096/],
    [':root { --a: a\u0001b }', /control characters/],
    [':root { --a: image-set("x" 1x) }', /image-set/],
    [':root { --a: -webkit-image-set("x" 1x) }', /image-set/],
    [':root { --a: src("x") }', /src\(\)/],
    [':root { --a: expression(alert(1)) }', /expression/],
    [':root { --a: URL(x) }', /url/],
    [':root { --a: \\75 rl(x) }', /url/],
    [':root { --a: 1 ! important }', /!important/],
    [':root { --a: (1 }', /unbalanced/],
    [':root { --a: 1 ) }', /unbalanced/],
    [':root { --a: "open }', /unterminated string/],
    [':root { --a: 1 /* open', /unterminated comment/],
    [':root { --a: 1', /unterminated block/],
    ['--a: 1;', /expected a rule/],
  ])('refuses %s', (css, reason) => refused(css, reason));

  it('allows at most 1024 declarations per file', () => {
    const decls = (n: number) =>
      `:root{${Array.from({ length: n }, (_, i) => `--v${i}:${i}`).join(';')}}`;
    expect(parse(decls(1024)).light.size).toBe(1024);
    refused(decls(1025), /more than 1024/);
  });

  it('refuses files over 1 MiB and invalid UTF-8', () => {
    refused(`:root{--a:"${'x'.repeat(1024 * 1024)}"}`, /1 MiB/);
    expect(() => parseThemeCss(Buffer.from([0x3a, 0xff]), 'tokens.css', 'x')).toThrow(/UTF-8/);
  });

  it('renders one :root block then one :root.dark block, later files winning', () => {
    const tokens = parse(':root{--a:1;--b:2} :root.dark{--a:3}');
    const recipes = parse(':root{--b:9;--c:4}');
    expect(renderThemeCss([tokens, recipes])).toBe(':root{--a:1;--b:9;--c:4}\n:root.dark{--a:3}\n');
    expect(renderThemeCss([])).toBe('');
  });
});
