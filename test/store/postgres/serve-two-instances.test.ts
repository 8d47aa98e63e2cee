import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createDeps, type AppDeps } from '../../../src/deps.js';
import { buildApp } from '../../../src/app.js';
import { openEngineKit } from '../../../src/kits/open.js';
import { silentLogger } from '../../../src/platform/logger.js';
import type { FastifyInstance } from 'fastify';
import { agentReport } from '../../support/agent-payloads.js';
import { tempHome } from '../../support/build-app.js';
import { TEST_ADMIN_PASSWORD } from '../../support/credentials.js';
import { FakeClock } from '../../support/fake-clock.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

interface Instance {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * One full `dash serve` (createDeps + buildApp) on the schema. Both instances share the home's
 * data key, as several instances of one install must (docs/postgresql.md "Between instances").
 */
async function instance(url: string, home: string, clock: FakeClock): Promise<Instance> {
  const config = loadConfig({
    DASH_HOME: home,
    DASH_DATABASE_URL: url,
    DASH_TIMEZONE: 'UTC',
    DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
  });
  const kit = await openEngineKit(config.database, clock.now());
  const deps = await createDeps(config, { clock, log: silentLogger, kit });
  await deps.adminPassword.ensure(config.adminPassword);
  const app = buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    async close() {
      await app.close();
      await deps.shutdown();
    },
  };
}

const within = async <T>(ms: number, probe: () => Promise<T | undefined>): Promise<T> => {
  const end = performance.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (performance.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.skipIf(!POSTGRES_AVAILABLE)('dash serve: two instances on one PostgreSQL', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  let clock: FakeClock;
  let a: Instance;
  let b: Instance;
  /** One install: every instance of every test here serves the schema with this home's key. */
  let home: string;
  beforeAll(async () => {
    schema = await freshSchema();
    home = tempHome();
  });
  afterAll(async () => schema?.drop());
  beforeEach(async () => {
    clock = new FakeClock();
    a = await instance(schema.url, home, clock);
    b = await instance(schema.url, home, clock);
  });
  afterEach(async () => {
    await a?.close();
    await b?.close();
  });

  const login = async (on: Instance) => {
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { password: TEST_ADMIN_PASSWORD, persistence: 'session' },
      remoteAddress: '10.0.0.1',
    });
    expect(res.statusCode).toBe(200);
    return { authorization: `Bearer ${res.json<{ access_token: string }>().access_token}` };
  };

  it('shows a report posted to A on B within a second, and B accepts A’s admin login', async () => {
    const admin = await login(a);
    // The session A issued is good on B.
    const onB = await b.app.inject({ method: 'GET', url: '/api/admin/nodes', headers: admin });
    expect(onB.statusCode).toBe(200);
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/admin/nodes/',
      headers: admin,
    });
    expect(created.statusCode).toBe(204);
    const listed = await a.app.inject({ method: 'GET', url: '/api/admin/nodes', headers: admin });
    const node = listed.json<Array<{ id: number; secret: string }>>()[0]!;
    const posted = await a.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
      payload: JSON.stringify(agentReport()),
    });
    expect(posted.statusCode).toBe(200);
    const started = performance.now();
    const seen = await within(1000, async () => {
      const res = await b.app.inject({
        method: 'GET',
        url: '/api/front/metrics',
        headers: admin,
      });
      expect(res.statusCode).toBe(200);
      const views =
        res.json<Array<{ node: { id: string }; observation: { received_at?: string } }>>();
      return views.find((v) => v.node.id === String(node.id) && v.observation.received_at);
    });
    expect(Date.parse(seen.observation.received_at!)).toBe(clock.now());
    expect(performance.now() - started).toBeLessThan(1000);
    // And B knows the node's secret A made: B accepts the node's next report too.
    clock.advance(3000);
    const onBReport = await within(1000, async () => {
      const res = await b.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
        payload: JSON.stringify(agentReport({ seq: 1 })),
      });
      return res.statusCode === 200 ? res : undefined;
    });
    expect(onBReport.statusCode).toBe(200);
  });

  it('follows guest visibility and deletion made on A in guest history reads on B', async () => {
    const admin = await login(a);
    const json = { 'content-type': 'application/json' };
    const settings = await a.app.inject({
      method: 'PATCH',
      url: '/api/admin/system/settings/',
      headers: { ...admin, ...json },
      payload: { history_guest_access_mode: 'by_node' },
    });
    expect(settings.statusCode).toBe(204);
    expect(
      (await a.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin })).statusCode,
    ).toBe(204);
    const listed = await a.app.inject({ method: 'GET', url: '/api/admin/nodes', headers: admin });
    const node = listed.json<Array<{ id: number }>>().at(-1)!;
    const guestStatus = async () =>
      (
        await b.app.inject({
          method: 'GET',
          url: `/api/metrics/history?server_id=${node.id}&metric=cpu.usage_ratio&range=1h`,
        })
      ).statusCode;
    const setVisible = async (visible: boolean) => {
      const res = await a.app.inject({
        method: 'PATCH',
        url: `/api/admin/nodes/${node.id}`,
        headers: { ...admin, ...json },
        payload: { is_guest_visible: visible },
      });
      expect(res.statusCode).toBe(204);
    };
    // B reads the visibility A set: first open, then hidden again (404, like an absent node).
    await setVisible(true);
    await within(1000, async () => ((await guestStatus()) === 200 ? true : undefined));
    await setVisible(false);
    await within(1000, async () => ((await guestStatus()) === 404 ? true : undefined));
    await setVisible(true);
    await within(1000, async () => ((await guestStatus()) === 200 ? true : undefined));
    const del = await a.app.inject({
      method: 'DELETE',
      url: `/api/admin/nodes/${node.id}`,
      headers: admin,
    });
    expect(del.statusCode).toBe(204);
    await within(1000, async () => ((await guestStatus()) === 404 ? true : undefined));
  });

  it('runs a job turn on one instance only', async () => {
    const spies = [a, b].map((i) => vi.spyOn(i.deps.uptime, 'finalise'));
    const jobs = [a, b].map((i) => i.deps.scheduler.job('uptime-finalize')!);
    clock.advance(120_000);
    await Promise.all(jobs.map((j) => j.runOnce(clock.now())));
    await Promise.all(jobs.map((j) => j.runOnce(clock.now())));
    expect(spies.reduce((n, s) => n + s.mock.calls.length, 0)).toBe(1);
    // The next turn is due a minute on: it runs once again.
    clock.advance(60_000);
    await Promise.all([...jobs].reverse().map((j) => j.runOnce(clock.now())));
    expect(spies.reduce((n, s) => n + s.mock.calls.length, 0)).toBe(2);
  });
});
