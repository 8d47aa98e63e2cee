import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';

/**
 * Slow and idle clients over real sockets, with short configured limits: every connection is
 * closed once it overstays a deadline, and one address cannot open more than its share.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({
    DASH_HTTP_HEADERS_TIMEOUT: '300ms',
    DASH_HTTP_REQUEST_TIMEOUT: '600ms',
    DASH_HTTP_IDLE_TIMEOUT: '250ms',
    DASH_HTTP_KEEP_ALIVE_TIMEOUT: '250ms',
    DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3',
  });
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

async function open(): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  return socket;
}

/** Milliseconds until the server closes the socket (rejects after `limit`). */
function closedWithin(socket: Socket, limit: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${limit} ms`));
    }, limit);
    socket.resume();
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - start);
    });
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function dribble(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++] as string);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('connection timeouts', () => {
  it('closes a connection that never sends a byte', async () => {
    expect(await closedWithin(await open(), 2000)).toBeGreaterThanOrEqual(200);
  });

  it('closes a connection whose headers arrive one byte at a time', async () => {
    const socket = await open();
    dribble(
      socket,
      `GET /api/version HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(200)}\r\n\r\n`,
      50,
    );
    expect(await closedWithin(socket, 2500)).toBeGreaterThanOrEqual(250);
  });

  it('closes a connection whose body stops short', async () => {
    const socket = await open();
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"pass',
    );
    await closedWithin(socket, 2000);
  });

  it('closes a connection whose body trickles in for longer than the request timeout', async () => {
    const socket = await open();
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 200\r\n\r\n',
    );
    dribble(socket, ' '.repeat(200), 50);
    expect(await closedWithin(socket, 3000)).toBeGreaterThanOrEqual(550);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const socket = await open();
    let answered = '';
    socket.on('data', (d: Buffer) => (answered += d.toString()));
    socket.write('GET /api/version HTTP/1.1\r\nHost: x\r\n\r\n');
    await closedWithin(socket, 2000);
    expect(answered).toMatch(/^HTTP\/1.1 200/);
    expect(answered).toMatch(/keep-alive: timeout=0/i);
  });
});

describe('connections per client address', () => {
  it('refuses connections beyond the cap and accepts again once one closes', async () => {
    const held = [await open(), await open(), await open()];
    const extra = await open();
    expect(await closedWithin(extra, 1000)).toBeLessThan(1000);
    held[0]?.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const again = await open();
    const answer = await new Promise<string>((resolve) => {
      let data = '';
      again.on('data', (d: Buffer) => (data += d.toString()));
      again.on('close', () => resolve(data));
      again.write('GET /api/version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1.1 200/);
    for (const s of held) s?.destroy();
  });
});
