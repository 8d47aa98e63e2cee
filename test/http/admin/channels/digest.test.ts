import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import { seedNode } from '../../../support/seed-nodes.js';
import { client, CPU_RULE, reportCpu, resetAlerts } from '../alerts/support.js';
import { buildChannelsApp, startReceiver, startSmtp } from './support.js';

const SMTP_PASSWORD = 'smtp-digest-secret';

type App = Awaited<ReturnType<typeof buildChannelsApp>>;
let t: App;
let send: ReturnType<typeof client>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let hookStatus: (n: number) => { code: number };
let node: { id: number; secret: string };

beforeAll(async () => {
  hook = await startReceiver((n) => hookStatus(n));
  smtp = await startSmtp(SMTP_PASSWORD);
  t = await buildChannelsApp();
  t.clock.advance(60_000);
});
beforeEach(async () => {
  send = client(t, await adminHeaders(t));
  hookStatus = () => ({ code: 200 });
  hook.received.length = 0;
  smtp.mails.length = 0;
  await resetAlerts(t);
  await t.sql.exec(`DELETE FROM notify_outbox; DELETE FROM notify_channels;`);
  await t.sql.resetIds(['notify_channels', 'notify_outbox']);
  await resetFleet(t);
  node = await seedNode(t, { name: 'web-01' });
  await send('POST', '/api/admin/alerts/rules/', { ...CPU_RULE, repeat_interval_min: 1 });
  await send('PUT', '/api/admin/alerts/mounts/', {
    rule_ids: [1],
    server_ids: [node.id],
    mounted: true,
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([hook.close(), smtp.close()]);
  expect(t.logLines.join('')).not.toContain(SMTP_PASSWORD);
});

async function channels(digestSec: number): Promise<void> {
  const create = async (body: unknown) => {
    const res = await send('POST', '/api/admin/alerts/channels/', body);
    expect(res.statusCode, res.body).toBe(204);
  };
  await create({
    name: 'hook',
    type: 'webhook',
    enabled: true,
    config: { url: `${hook.url}/h`, digest_sec: digestSec },
  });
  await create({
    name: 'mail',
    type: 'email',
    enabled: true,
    config: {
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      username: 'ops',
      password: SMTP_PASSWORD,
      from: 'dash@example.com',
      to: ['oncall@example.com'],
      use_tls: false,
      digest_sec: digestSec,
    },
  });
  await send('PUT', '/api/admin/alerts/settings/', { enabled: true, channel_ids: [1, 2] });
}

const run = () => t.deps.notifyOutbox.runOnce(t.clock.now());
const states = () =>
  t.sql.all<{ channel_id: number; state: string }>(
    'SELECT channel_id, state FROM notify_outbox ORDER BY id',
  );

/** Opened, closed, opened: three transitions three seconds apart. */
async function flap(): Promise<void> {
  for (const v of [0.95, 0.1, 0.95]) {
    t.clock.advance(3000);
    await reportCpu(t, node.secret, v);
    await run();
  }
}

describe('digest channels', () => {
  it('reads back digest_sec and rejects a bad one', async () => {
    await channels(60);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      config: { url: `${hook.url}/h`, digest_sec: 60 },
    });
    for (const digest_sec of [-1, 3601, 1.5, '60']) {
      const res = await send('POST', '/api/admin/alerts/channels/', {
        name: 'x',
        type: 'webhook',
        enabled: true,
        config: { url: `${hook.url}/h`, digest_sec },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_fields' });
    }
  });

  it('gathers the transitions of the window into one message per channel', async () => {
    await channels(60);
    await flap();
    expect(hook.received).toHaveLength(0); // the window is still open
    expect(smtp.mails).toHaveLength(0);
    t.clock.advance(54_000);
    await run();
    expect(hook.received).toHaveLength(1);
    const body = JSON.parse(hook.received[0]!.body) as {
      title: string;
      message: string;
      meta: Record<string, unknown>;
    };
    expect(body.title).toBe('[DIGEST] 2 alert(s), 1 resolved');
    expect(body.message.split('\n\n').map((p) => p.split('\n')[0])).toEqual([
      '[ALERT] CPU high on web-01',
      '[RESOLVED] CPU high on web-01',
      '[ALERT] CPU high on web-01',
    ]);
    expect(body.meta).toMatchObject({ transition: 'digest', digest_count: 3 });
    expect(hook.received[0]!.headers['x-alert-transition']).toBe('digest');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.data).toContain('Subject: [DIGEST] 2 alert(s), 1 resolved');
    expect((await states()).every((s) => s.state === 'sent')).toBe(true);
    await run();
    expect(hook.received).toHaveLength(1);
    // a transition after the window opens a new one
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.1);
    await run();
    expect(hook.received).toHaveLength(1);
    t.clock.advance(60_000);
    await run();
    expect(hook.received).toHaveLength(2);
    expect(JSON.parse(hook.received[1]!.body)).toMatchObject({
      title: '[RESOLVED] CPU high on web-01',
    });
  });

  it('sends without a window when digest_sec is 0', async () => {
    await channels(0);
    await flap();
    expect(hook.received).toHaveLength(3);
    expect(smtp.mails).toHaveLength(3);
  });

  it('retries a digest as a whole after a failing endpoint', async () => {
    hookStatus = (n) => (n === 1 ? { code: 503 } : { code: 200 });
    await channels(30);
    await flap();
    t.clock.advance(30_000);
    await run();
    expect(hook.received).toHaveLength(1);
    expect((await states()).filter((s) => s.channel_id === 1).map((s) => s.state)).toEqual([
      'retry',
      'retry',
      'retry',
    ]);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      consecutive_failures: 1,
      pending_count: 3,
    });
    t.clock.advance(5_000);
    await run();
    expect(hook.received).toHaveLength(2);
    expect(JSON.parse(hook.received[1]!.body)).toMatchObject({ meta: { digest_count: 3 } });
    expect((await states()).every((s) => s.state === 'sent')).toBe(true);
  });

  it('delivers repeat notifications of an open event, numbered', async () => {
    await channels(0);
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.95);
    await run();
    t.clock.advance(60_000);
    await reportCpu(t, node.secret, 0.95);
    await t.deps.alerts.tick(t.clock.now());
    await run();
    expect(hook.received).toHaveLength(2);
    expect(JSON.parse(hook.received[1]!.body)).toMatchObject({
      title: '[ALERT, repeat 1] CPU high on web-01',
      meta: { transition: 'repeat', dedupe_key: 'alert:1:repeat1:1' },
    });
  });
});
