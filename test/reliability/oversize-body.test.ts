import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { seedNode } from '../support/seed-nodes.js';
import { parseRaw } from '../support/raw-http.js';

/**
 * A body over its limit, sent whole without `Expect: 100-continue` (as curl and most clients
 * do for small bodies): the client reads a 413 body_too_large, not a connection reset, whether
 * the size is announced by Content-Length or only found while reading a chunked body.
 */
let t: TestApp;
let port: number;
let admin: Record<string, string>;
let secret: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  secret = (await seedNode(t)).secret;
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

/** Writes the whole request, then reads until the server closes; errors are returned, not thrown. */
function send(head: string, body: Buffer): Promise<{ raw: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    let error: string | undefined;
    socket.on('data', (d: Buffer) => (raw += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ raw, error }));
    socket.write(head);
    socket.write(body);
    socket.end();
  });
}

const cases = [
  ['/api/node/metrics', 1024 * 1024, () => ({ 'x-node-secret': secret })],
  ['/api/admin/alerts/rules/', 64 * 1024, () => admin],
  ['/api/auth/login', 1024 * 1024, () => ({})],
] as const;

describe('oversize bodies without Expect: 100-continue', () => {
  it.each(cases)('%s: Content-Length over the limit → a readable 413', async (path, limit, h) => {
    const body = Buffer.alloc(limit * 2 + 17, 0x20);
    const headers = Object.entries(h())
      .map(([k, v]) => `${k}: ${String(v)}\r\n`)
      .join('');
    const head =
      `POST ${path} HTTP/1.1\r\nHost: dash.test\r\n${headers}` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const { raw, error } = await send(head, body);
    const res = parseRaw(raw);
    expect(res.status, `${error ?? ''} ${raw.slice(0, 200)}`).toBe(413);
    expect(res.body).toContain('body_too_large');
  });

  it.each(cases)(
    '%s: a chunked body growing past the limit → a readable 413',
    async (path, limit, h) => {
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const chunks: Buffer[] = [];
      for (let sent = 0; sent <= limit * 2; sent += chunk.length)
        chunks.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
      chunks.push(Buffer.from('0\r\n\r\n'));
      const headers = Object.entries(h())
        .map(([k, v]) => `${k}: ${String(v)}\r\n`)
        .join('');
      const head =
        `POST ${path} HTTP/1.1\r\nHost: dash.test\r\n${headers}` +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const { raw, error } = await send(head, Buffer.concat(chunks));
      const res = parseRaw(raw);
      expect(res.status, `${error ?? ''} ${raw.slice(0, 200)}`).toBe(413);
      expect(res.body).toContain('body_too_large');
    },
  );
});
