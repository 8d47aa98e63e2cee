import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { seedNode } from '../support/seed-nodes.js';
import { agentReport } from '../support/agent-payloads.js';
import { latencies, percentile, startHostiles } from '../support/hostile-clients.js';

/**
 * Slow and many clients at once, over real sockets (issue 25; the measured run with thousands
 * of polls is `npm run soak:clients`): idle connections, slowloris headers, clients that
 * pipeline and never read, and a crowd of dashboard polls. A well-behaved client keeps being
 * answered, the server closes every hostile connection by itself within its deadlines, and
 * the process's open file descriptors return to where they started.
 */
let t: TestApp;
let port: number;

const openFds = () => readdirSync('/proc/self/fd').length;
const serverConnections = () =>
  new Promise<number>((resolve, reject) =>
    t.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  );
async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not reached within ${ms} ms`);
}

beforeAll(async () => {
  t = await buildTestApp({
    DASH_HTTP_HEADERS_TIMEOUT: '1s',
    DASH_HTTP_REQUEST_TIMEOUT: '2s',
    DASH_HTTP_IDLE_TIMEOUT: '1s',
    DASH_HTTP_KEEP_ALIVE_TIMEOUT: '1s',
    DASH_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '64',
  });
  // Twenty reporting nodes, so a dashboard answer is large enough to fill socket buffers.
  for (let i = 0; i < 20; i++) {
    const n = await seedNode(t, { name: `node-${i}`, guestVisible: true });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': n.secret },
      payload: JSON.stringify(agentReport({ seq: i })),
    });
    expect(res.statusCode).toBe(200);
  }
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

describe('slow and many clients', () => {
  it('keep a good client answered, are closed by the server, and leave no descriptor behind', async () => {
    await latencies(port, '/api/front/metrics', 5); // warm
    const fdsBefore = openFds();
    const quiet = await latencies(port, '/api/front/metrics', 20);
    const hostiles = startHostiles({
      port,
      idle: 60,
      slowloris: 60,
      pipeliners: 8,
      pipelined: 300,
      polls: 100,
      pollAddresses: 2,
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const loaded = await latencies(port, '/api/front/metrics', 20);
      // Figures for the log; the soak run measures the ratio properly.
      console.log(
        `slow clients: p50 quiet ${percentile(quiet, 50).toFixed(1)} ms, ` +
          `loaded ${percentile(loaded, 50).toFixed(1)} ms; polls ${hostiles.polls.ok}`,
      );
      expect(loaded).toHaveLength(20);
      expect(hostiles.polls.ok).toBeGreaterThan(0);
    } finally {
      hostiles.stop();
    }
    await waitFor('no server connections', async () => (await serverConnections()) === 0, 15_000);
    await waitFor(`descriptors back to ${fdsBefore}`, () => openFds() <= fdsBefore + 2, 10_000);
  }, 60_000);

  it('closes hostile connections by its deadlines while their clients keep them open', async () => {
    const fdsBefore = openFds();
    const hostiles = startHostiles({
      port,
      idle: 30,
      slowloris: 30,
      pipeliners: 5,
      pipelined: 300,
      polls: 0,
      pollAddresses: 1,
    });
    try {
      await waitFor(
        'hostile connections accepted',
        async () => (await serverConnections()) >= 60,
        10_000,
      );
      // Nobody on the client side closes anything: the server must (headers 1 s, idle 1 s).
      await waitFor(
        'server closed them all',
        async () => (await serverConnections()) === 0,
        15_000,
      );
      const stillOpenOnClient = hostiles.sockets.filter((s) => !s.destroyed).length;
      expect(stillOpenOnClient).toBeGreaterThan(0);
    } finally {
      hostiles.stop();
    }
    await waitFor(`descriptors back to ${fdsBefore}`, () => openFds() <= fdsBefore + 2, 10_000);
    expect((await latencies(port, '/api/front/metrics', 3)).length).toBe(3);
  }, 60_000);
});
