import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { parseRaw, rawRequest } from '../support/raw-http.js';

/**
 * Answers Fastify's router and Node's parser give on their own: they must follow the /api
 * conventions ({code, message}, no-store) and never echo the request path back.
 */
let t: TestApp;
let port: number;
let auth: string;

beforeAll(async () => {
  t = await buildTestApp();
  port = await listenOnLoopback(t.app);
  auth = (await adminHeaders(t)).authorization as string;
});
afterAll(async () => t.close());

async function get(target: string, method = 'GET') {
  return parseRaw(
    await rawRequest(
      port,
      `${method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nConnection: close\r\n\r\n`,
    ),
  );
}

function expectConventional(res: ReturnType<typeof parseRaw>, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body).toEqual({ code, message: expect.any(String) as string });
  return body;
}

describe('router errors', () => {
  it('answers an invalid percent-escape in an /api path with 400 invalid_request', async () => {
    const body = expectConventional(
      await get('/api/admin/nodes/%ff-marker'),
      400,
      'invalid_request',
    );
    expect(JSON.stringify(body)).not.toContain('marker');
  });

  it('answers a path parameter over 100 characters with 404 not_found, without echoing it', async () => {
    const res = await get(`/api/admin/nodes/${'z'.repeat(150)}marker`, 'DELETE');
    expectConventional(res, 404, 'not_found');
    expect(res.body).not.toContain('marker');
  });

  it('answers a non-API path with an invalid escape without echoing it', async () => {
    const res = await get('/nodes/%ff-marker');
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toContain('marker');
  });
});

describe("Node's parser errors", () => {
  it('answers an HTTP/1.1 request without Host with a JSON 400', async () => {
    const res = parseRaw(
      await rawRequest(port, 'GET /api/version HTTP/1.1\r\nConnection: close\r\n\r\n'),
    );
    expectConventional(res, 400, 'invalid_request');
  });

  it('answers malformed headers and oversized headers with a JSON 400 or 431', async () => {
    const broken = parseRaw(await rawRequest(port, 'GET /api/version HTTP/1.1\r\nHo st\r\n\r\n'));
    expectConventional(broken, 400, 'invalid_request');
    const huge = parseRaw(
      await rawRequest(
        port,
        `GET /api/version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(huge.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(huge.body)).toMatchObject({ code: expect.any(String) as string });
  });
});
