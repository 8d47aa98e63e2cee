import { describe, expect, it } from 'vitest';
import { renderBodyTemplate, WEBHOOK_PRESETS } from '../../src/protocol/webhook-presets.js';
import { validateConfig } from '../../src/domain/channels/config.js';

const values = {
  title: 'Alert "CPU"',
  message: 'line1\nline2 {{title}}',
  text: 'T\nM',
  sent_at: '2026-11-21T12:00:00Z',
  transition: 'opened',
  dedupe_key: 'alert:1:opened:1',
};

describe('webhook presets', () => {
  it('covers the services users ask for, each a valid webhook config', () => {
    expect(WEBHOOK_PRESETS.map((p) => p.id)).toEqual([
      'discord',
      'slack',
      'ntfy',
      'gotify',
      'bark',
      'feishu',
      'dingtalk',
      'wecom',
      'serverchan',
      'pushover',
    ]);
    for (const p of WEBHOOK_PRESETS) {
      const url = p.url.replace(/<[^>]+>/g, 'x');
      expect(
        validateConfig('webhook', { url, body_template: p.bodyTemplate, preset: p.id }),
      ).toMatchObject({ type: 'webhook', config: { preset: p.id } });
      expect(() => JSON.parse(renderBodyTemplate(p.bodyTemplate, values)) as unknown).not.toThrow();
    }
  });

  it('fills placeholders inside strings only, never re-expanding values', () => {
    const out = renderBodyTemplate(
      '{"a":"{{title}}","b":{"c":["{{message}}",3]},"d":"{{nope}}"}',
      values,
    );
    expect(JSON.parse(out)).toEqual({
      a: 'Alert "CPU"',
      b: { c: ['line1\nline2 {{title}}', 3] },
      d: '{{nope}}',
    });
  });

  it('rejects a template that is not a JSON object and an unknown preset', () => {
    expect(() => validateConfig('webhook', { url: 'https://x/', body_template: '{' })).toThrow();
    expect(() => validateConfig('webhook', { url: 'https://x/', body_template: '"s"' })).toThrow();
    expect(() => validateConfig('webhook', { url: 'https://x/', preset: 'fax' })).toThrow();
  });
});
