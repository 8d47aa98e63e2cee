import { gzipSync } from 'node:zlib';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../../src/http/server.js';
import { defineRoute } from '../../src/http/route-def.js';
import { silentLogger } from '../../src/platform/logger.js';

/** A tiny route table exercising the body rules every real route inherits. */
const echo = defineRoute({
  method: 'POST',
  path: '/api/test/echo',
  auth: 'public',
  bodyLimit: 1024,
  schema: {
    body: Type.Object({
      n: Type.Optional(Type.Integer({ minimum: -(2 ** 31), maximum: 2 ** 31 - 1 })),
      big: Type.Optional(Type.Integer({ minimum: -(2 ** 63), maximum: 2 ** 63 })),
      s: Type.Optional(Type.String()),
    }),
  },
  handler: (req) => ({ got: req.body }),
});
const login = defineRoute({
  method: 'POST',
  path: '/api/test/login',
  auth: 'public',
  jsonErrorCode: 'invalid_json',
  schema: { body: Type.Object({ a: Type.String() }) },
  handler: () => ({ ok: true }),
});

let app: FastifyInstance;
beforeAll(async () => {
  app = createHttpServer({ logger: silentLogger, routes: [echo, login], guards: {} });
  await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => app.close());

const post = (url: string, payload: string | Buffer, type = 'application/json') =>
  app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });

describe('request bodies', () => {
  it('accepts strict JSON with a JSON media type and parameters', async () => {
    const res = await post('/api/test/echo', '{"n":5,"s":"x"}', 'application/json; charset=utf-8');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ got: { n: 5, s: 'x' } });
  });

  it.each([
    ['duplicate keys', '{"n":1,"n":2}'],
    ['trailing data', '{"n":1} {}'],
    ['truncated JSON', '{"n":'],
    ['an int32 out of range', '{"n":2147483648}'],
    ['an int64 out of range', '{"big":9223372036854775808}'],
    ['a wrong type', '{"n":"5"}'],
    ['a fraction for an integer', '{"n":1.5}'],
    ['a non-object body', '[1]'],
  ])('rejects %s with 400 invalid_request', async (_name, body) => {
    const res = await post('/api/test/echo', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('accepts the largest int64', async () => {
    const res = await post('/api/test/echo', '{"big":9223372036854775807}');
    expect(res.statusCode).toBe(200);
  });

  it('rejects invalid UTF-8 with 400', async () => {
    const res = await post(
      '/api/test/echo',
      Buffer.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('uses the route code for malformed JSON (login answers invalid_json)', async () => {
    const res = await post('/api/test/login', '{bad');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json' });
  });

  it.each(['text/plain', 'application/jsonx', 'application/json; charset', ''])(
    'answers 415 for content type "%s"',
    async (type) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: type ? { 'content-type': type } : {},
        payload: '{}',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    },
  );

  it('answers 413 body_too_large above the route limit', async () => {
    const res = await post('/api/test/echo', JSON.stringify({ s: 'x'.repeat(2000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('refuses an oversized declared body without reading it', async () => {
    const { port } = app.server.address() as AddressInfo;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        // Declares 100 MB but sends only the headers: the answer must come without the body.
        socket.write(
          'POST /api/test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
        );
      });
      let data = '';
      socket.on('data', (d: Buffer) => {
        data += d.toString();
        if (data.includes('}')) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${data}`)), 3000);
    });
    expect(reply).toMatch(/^HTTP\/1.1 413/);
    expect(reply).toContain('"code":"body_too_large"');
    expect(reply.toLowerCase()).toContain('cache-control: no-store');
  });
  it('refuses an encoded body on a route that takes none with 415', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync('{"n":1}'),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.headers['accept-encoding']).toBeUndefined();
  });
});
