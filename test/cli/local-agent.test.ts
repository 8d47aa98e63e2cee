import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalAgent } from '../../src/cli/local-agent.js';
import type { AgentHandle } from '../../src/agent/run.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';

/** The agent bundled with Dash reporting this very host into a real Dash over loopback. */
let t: TestApp;
let agent: AgentHandle | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await agent?.stop();
  await t.close();
});

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

type View = {
  node: { id: string; title: string };
  cpu: { usage_ratio: number; load: { l1: number } };
  memory: { total_bytes: number; used_bytes: number };
  network: { total: { bytes_recv: number } };
  disk: { mounts: Array<{ mountpoint: string; total_bytes: number }> };
};

describe('local agent round trip', () => {
  it('creates its node once, and its reports land in the front view and history', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    agent = await startLocalAgent(t.deps, { host: '127.0.0.1', port });
    const admin = await adminHeaders(t);
    const view = await waitFor(async () => {
      const views = (await t.app.inject({ method: 'GET', url: '/api/front/metrics' })).json<
        View[]
      >();
      return views[0];
    });
    // Guests see it: a first-time user's dashboard shows this host.
    expect(view.memory.total_bytes).toBeGreaterThan(0);
    expect(view.memory.used_bytes).toBeGreaterThan(0);
    expect(view.cpu.usage_ratio).toBeGreaterThanOrEqual(0);
    expect(view.disk.mounts.some((m) => m.mountpoint === '/' && m.total_bytes > 0)).toBe(true);
    const nodes = (
      await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
    ).json<Array<{ id: number; hostname: string; version: { version: string } }>>();
    expect(nodes).toHaveLength(1);
    expect(nodes[0]!.version.version).toBe(t.deps.versions.node);
    const history = await waitFor(async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/metrics/history?server_id=${view.node.id}&metric=mem.used&range=30m`,
        headers: admin,
      });
      const points = res.json<{ points: unknown[] }>().points;
      return points.length > 0 ? points : undefined;
    });
    expect(history.length).toBeGreaterThan(0);

    // A restart reuses the node instead of creating another one.
    await agent.stop();
    agent = await startLocalAgent(t.deps, { host: '127.0.0.1', port });
    const again = (
      await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
    ).json<unknown[]>();
    expect(again).toHaveLength(1);
  });
});
