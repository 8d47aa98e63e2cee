import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';
import { insertNode } from '../../support/seed.js';
import { seedNode } from '../../support/seed-nodes.js';
import { agentReport } from '../../support/agent-payloads.js';

let t: TestApp;
let admin: Record<string, string>;
let visible: number;
let hidden: number;
let deleted: number;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  const node = await seedNode(t, { name: 'node', guestVisible: true });
  visible = node.id;
  hidden = await insertNode(t.sql, { guestVisible: false });
  deleted = await insertNode(t.sql, { guestVisible: true, deleted: true });
  // A few minutes of real reports to the visible node, then finalise them. Posted, not fed to
  // the uptime service directly: on PostgreSQL the finalising instance reads stored reports.
  const start = t.clock.now();
  for (let s = 0; s < 180; s += 3) {
    t.clock.set(start + 60_000 + s * 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/metrics',
      headers: { 'content-type': 'application/json', 'x-node-secret': node.secret },
      payload: JSON.stringify(agentReport({ seq: s })),
    });
    if (res.statusCode !== 200) throw new Error(`report refused: ${res.body}`);
  }
  t.clock.set(start + 4 * 60_000 + 6000);
  await t.deps.uptime.finalise();
});
afterAll(async () => t.close());

const today = () => new Date(t.clock.now()).toISOString().slice(0, 10);
const setGuestVisible = (v: boolean) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/admin/system/settings/',
    headers: { ...admin, 'content-type': 'application/json' },
    payload: { uptime_guest_visible: v },
  });

describe('GET /api/metrics/uptime', () => {
  it.each(['/api/metrics/uptime', '/api/metrics/uptime/'])(
    '%s lists every non-deleted node for admins',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: admin });
      expect(res.statusCode).toBe(200);
      const body = res.json<{
        enabled: boolean;
        nodes: Array<{
          server_id: string;
          days: Array<{ date: string; percent: number | null; observed_ms: number }>;
        }>;
      }>();
      expect(body).toMatchObject({
        enabled: true,
        timezone: 'UTC',
        warning_sla: 99,
        error_sla: 95,
      });
      expect(body.nodes.map((n) => n.server_id)).toEqual([String(visible), String(hidden)]);
      const days = body.nodes[0]!.days;
      expect(days).toHaveLength(45);
      expect(days.at(-1)).toEqual({ date: today(), percent: 100, observed_ms: 3 * 60_000 });
      expect(body.nodes[1]!.days.at(-1)).toEqual({ date: today(), percent: null, observed_ms: 0 });
    },
  );

  it('shows guests only guest-visible nodes when uptime is guest-visible', async () => {
    await setGuestVisible(true);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics/uptime',
      headers: { authorization: 'Bearer bad' },
    });
    const body = res.json<{ enabled: boolean; nodes: Array<{ server_id: string }> }>();
    expect(body.enabled).toBe(true);
    expect(body.nodes.map((n) => n.server_id)).toEqual([String(visible)]);
  });

  it('answers guests enabled=false with no nodes when uptime is hidden from guests', async () => {
    await setGuestVisible(false);
    const res = await t.app.inject({ method: 'GET', url: '/api/metrics/uptime' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ enabled: false, nodes: [], warning_sla: 99, error_sla: 95 });
    await setGuestVisible(true);
  });
});

describe('GET /api/metrics/uptime/day', () => {
  const day = (
    query: string,
    headers: Record<string, string> = {},
    path = '/api/metrics/uptime/day',
  ) => t.app.inject({ method: 'GET', url: `${path}?${query}`, headers });

  it.each(['/api/metrics/uptime/day', '/api/metrics/uptime/day/'])(
    '%s returns 24 local hours',
    async (path) => {
      const res = await day(`server_id=${visible}&date=${today()}`, admin, path);
      expect(res.statusCode).toBe(200);
      const body = res.json<{ date: string; hours: Array<number | null>; observed_ms: number[] }>();
      expect(body.date).toBe(today());
      expect(body.hours).toHaveLength(24);
      expect(body.observed_ms).toHaveLength(24);
      expect(body.hours[12]).toBe(100);
      expect(body.observed_ms[12]).toBe(3 * 60_000);
      expect(body.hours[13]).toBeNull();
      expect(body.observed_ms[13]).toBe(0);
    },
  );

  it.each([
    ['a missing id', `date=2026-11-21`],
    ['a non-numeric id', `server_id=abc&date=2026-11-21`],
    ['a zero id', `server_id=0&date=2026-11-21`],
    ['a negative id', `server_id=-1&date=2026-11-21`],
    ['a missing date', `server_id=1`],
    ['a malformed date', `server_id=1&date=21-11-2026`],
    ['an impossible date', `server_id=1&date=2026-02-30`],
    ['a date before the window', `server_id=1&date=2026-10-07`],
    ['a future date', `server_id=1&date=2026-11-22`],
  ])('answers %s with 400 invalid_request', async (_n, q) => {
    const res = await day(q.replace('server_id=1', `server_id=${visible}`), admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('accepts the oldest date of the window', async () => {
    expect((await day(`server_id=${visible}&date=2026-10-08`, admin)).statusCode).toBe(200);
  });

  it('answers guests 403 forbidden when uptime is hidden from guests', async () => {
    await setGuestVisible(false);
    const res = await day(`server_id=${visible}&date=${today()}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
    expect((await day(`server_id=${visible}&date=${today()}`, admin)).statusCode).toBe(200);
    await setGuestVisible(true);
  });

  it('answers 404 for hidden (guest), deleted and absent nodes', async () => {
    expect((await day(`server_id=${hidden}&date=${today()}`)).statusCode).toBe(404);
    expect((await day(`server_id=${hidden}&date=${today()}`, admin)).statusCode).toBe(200);
    expect((await day(`server_id=${deleted}&date=${today()}`, admin)).statusCode).toBe(404);
    const absent = await day(`server_id=99999&date=${today()}`, admin);
    expect(absent.statusCode).toBe(404);
    expect(absent.json()).toMatchObject({ code: 'not_found' });
  });

  it('answers 503 service_unavailable on a database failure', async () => {
    const broken = await buildTestApp();
    const id = await insertNode(broken.sql, { guestVisible: true });
    await broken.sql.exec('DROP TABLE uptime_hour');
    const res = await broken.app.inject({
      method: 'GET',
      url: `/api/metrics/uptime/day?server_id=${id}&date=${today()}`,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable' });
    await broken.close();
  });
});
