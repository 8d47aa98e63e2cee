import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/platform/logger.js';
import { agentReport } from '../../support/agent-payloads.js';
import { buildTestApp, listenOnLoopback, type TestApp } from '../../support/build-app.js';
import { parseRaw } from '../../support/raw-http.js';
import { seedNode } from '../../support/seed-nodes.js';

/** A report stored too late answers 503; the log line must say whose report it was. */
let t: TestApp;
let port: number;
let node: { id: number; secret: string };
const lines: string[] = [];

beforeAll(async () => {
  t = await buildTestApp(
    {},
    { log: createLogger('info', { write: (s: string) => void lines.push(s) }) },
  );
  port = await listenOnLoopback(t.app);
  node = await seedNode(t, { name: 'slow-link' });
});
afterAll(async () => t.close());

/** Sends the head, lets the (fake) clock pass the 5 s budget, then sends the body. */
function lateReport(chunked: boolean): Promise<ReturnType<typeof parseRaw>> {
  const body = JSON.stringify(agentReport());
  const framing = chunked
    ? 'Transfer-Encoding: chunked\r\n'
    : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  const payload = chunked
    ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`
    : body;
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/node/metrics HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `X-Node-Secret: ${node.secret}\r\n${framing}Connection: close\r\n\r\n`,
      );
      setTimeout(() => {
        t.clock.advance(6000);
        socket.write(payload);
      }, 100);
    });
    socket.on('data', (d: Buffer) => (data += d.toString()));
    socket.on('close', () => resolve(parseRaw(data)));
    socket.on('error', reject);
  });
}

describe('late metrics reports', () => {
  it.each([
    ['the fast lane', false],
    ['the router', true],
  ])('answers 503 and logs the node on %s', async (_path, chunked) => {
    lines.length = 0;
    const res = await lateReport(chunked);
    expect(res.status).toBe(503);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = logged.find((l) => l.code === 'service_unavailable');
    expect(line, JSON.stringify(logged)).toBeDefined();
    expect(line?.nodeId).toBe(node.id);
    expect(JSON.stringify(logged)).not.toContain(node.secret);
  });
});
