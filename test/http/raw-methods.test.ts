import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';

/** Requests Node's HTTP parser rejects before any router sees them, over a real socket. */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

function rawRequest(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString()));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      resolve(data);
    }, 2000);
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [status = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [
      l.slice(0, l.indexOf(':')).toLowerCase(),
      l.slice(l.indexOf(':') + 1).trim(),
    ]),
  );
  return { status, headers, body };
}

describe('methods rejected by the HTTP parser or outside the six', () => {
  it.each([
    ['lowercase get', 'get /api/version/ HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an unknown verb', 'FROB /api/version/ HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['PROPFIND', 'PROPFIND /api/version/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['OPTIONS', 'OPTIONS /api/version/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ])('answers %s with JSON 501 not_implemented and no-store', async (_name, head) => {
    const res = parse(await rawRequest(head));
    expect(res.status).toMatch(/^HTTP\/1.1 501/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      code: 'not_implemented',
      message: expect.any(String) as string,
    });
  });

  it('still serves a well-formed GET on the same server', async () => {
    const res = parse(
      await rawRequest('GET /api/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    expect(res.status).toMatch(/^HTTP\/1.1 200/);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
