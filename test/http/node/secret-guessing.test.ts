import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../../support/build-app.js';
import { agentReport } from '../../support/agent-payloads.js';
import { parseRaw, rawRequest } from '../../support/raw-http.js';
import { seedNode } from '../../support/seed-nodes.js';

/** Guessing X-Node-Secret values from one address is slowed to a few tries a minute. */
let t: TestApp;
let node: { id: number; secret: string };

beforeEach(async () => {
  t = await buildTestApp({ DASH_NODE_AUTH_FAILURES_PER_MINUTE: '3' });
  node = await seedNode(t);
});
afterEach(async () => t.close());

const post = (secret: string | undefined, ip = '192.0.2.10') =>
  t.app.inject({
    method: 'POST',
    url: '/api/node/static',
    headers: {
      'content-type': 'application/json',
      ...(secret === undefined ? {} : { 'x-node-secret': secret }),
    },
    payload: '{}',
    remoteAddress: ip,
  });

describe('unknown node secrets', () => {
  it('answers 429 with Retry-After once an address used up its failures, right secret or not', async () => {
    for (let i = 0; i < 3; i++) expect((await post(`guess-${i}`)).statusCode).toBe(401);
    const limited = await post(node.secret);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['cache-control']).toBe('no-store');
    // Other addresses are not affected, and the address recovers after a minute.
    expect((await post(node.secret, '192.0.2.11')).statusCode).not.toBe(429);
    t.clock.advance(60_001);
    expect((await post(node.secret)).statusCode).not.toBe(429);
  });

  it('does not count requests without a secret', async () => {
    for (let i = 0; i < 5; i++) expect((await post(undefined)).statusCode).toBe(401);
    expect((await post(node.secret)).statusCode).not.toBe(429);
  });

  it('counts and refuses guesses at /deploy too', async () => {
    mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
    writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), 'agent');
    const get = (secret: string) =>
      t.app.inject({
        method: 'GET',
        url: '/deploy/linux/node_linux_amd64',
        headers: { 'x-node-secret': secret },
        remoteAddress: '192.0.2.10',
      });
    for (let i = 0; i < 3; i++) expect((await get(`guess-${i}`)).statusCode).toBe(401);
    const limited = await get(node.secret);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await post(node.secret)).statusCode).toBe(429);
  });

  it('holds on the metrics fast lane over a real socket', async () => {
    const port = await listenOnLoopback(t.app);
    const body = JSON.stringify(agentReport());
    const report = (secret: string) =>
      rawRequest(
        port,
        `POST /api/node/metrics HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `X-Node-Secret: ${secret}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      ).then(parseRaw);
    expect((await report(node.secret)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await report(`guess-${i}`)).status).toBe(401);
    const limited = await report(node.secret);
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toMatchObject({ code: 'rate_limited' });
  });
});
