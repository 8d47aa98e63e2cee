import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseStrictJson } from '../../src/protocol/strict-json.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { seedNode } from '../support/seed-nodes.js';

/** Lone UTF-16 surrogates are no characters: they must not pass as one and be stored. */
describe('strict JSON reader and surrogates', () => {
  it.each([
    ['a lone high surrogate', '{"name":"\\ud800"}'],
    ['a lone low surrogate', '{"name":"\\udc00"}'],
    ['a high surrogate before another escape', '{"name":"\\ud800\\u0041"}'],
    ['two high surrogates', '{"name":"\\ud800\\ud800"}'],
    ['a reversed pair', '["\\ude00\\ud83d"]'],
    ['a high surrogate at the end', '"\\uD83D"'],
    ['a lone surrogate in a key', '{"\\ud800":1}'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseStrictJson(text)).toThrow(JsonSyntaxError);
  });

  it('accepts proper pairs and escaped backslashes before u', () => {
    expect(parseStrictJson('{"s":"\\ud83d\\ude00 \\uD83D\\uDE00"}')).toEqual({ s: '😀 😀' });
    expect(parseStrictJson('{"s":"\\\\ud800"}')).toEqual({ s: '\\ud800' });
  });
});

describe('over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('answers 400 invalid_request for a node name of lone surrogates, storing nothing', async () => {
    const node = await seedNode(t, { name: 'before' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${node.id}`,
      headers: { ...(await adminHeaders(t)), 'content-type': 'application/json' },
      payload: `{"name":"${'\\ud800'.repeat(64)}"}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
    const row = t.raw.prepare('SELECT name FROM nodes WHERE id = ?').get(node.id) as {
      name: string;
    };
    expect(row.name).toBe('before');
  });
});
