import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import { seedNode } from '../../../support/seed-nodes.js';
import { client, CPU_RULE, reportCpu, resetAlerts } from '../alerts/support.js';
import { buildChannelsApp, startReceiver, startSmtp } from './support.js';

const BOT_TOKEN = '987654:ANOTHER-secret-bot-token';
const SMTP_PASSWORD = 'smtp-Pa55-never-logged';

type App = Awaited<ReturnType<typeof buildChannelsApp>>;
let t: App;
let send: ReturnType<typeof client>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let botApi: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let hookStatus: (n: number) => { code: number; headers?: Record<string, string> };
let node: { id: number; secret: string };
const BOT_OK = { code: 200, body: '{"ok":true,"result":{}}' };
let botReply: { code: number; body: string } = BOT_OK;

beforeAll(async () => {
  hook = await startReceiver((n) => hookStatus(n));
  botApi = await startReceiver(() => botReply);
  smtp = await startSmtp(SMTP_PASSWORD);
  t = await buildChannelsApp({ env: { DASH_TELEGRAM_API_URL: botApi.url } });
  send = client(t, await adminHeaders(t));
  t.clock.advance(60_000);
});
beforeEach(async () => {
  hookStatus = () => ({ code: 200 });
  botReply = BOT_OK;
  for (const r of [hook, botApi]) r.received.length = 0;
  smtp.mails.length = 0;
  await resetAlerts(t);
  await t.sql.exec(`DELETE FROM notify_outbox; DELETE FROM notify_channels;`);
  await t.sql.resetIds(['notify_channels', 'notify_outbox']);
  await resetFleet(t);
  node = await seedNode(t, { name: 'web-01' });
  await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
  await send('PUT', '/api/admin/alerts/mounts/', {
    rule_ids: [1],
    server_ids: [node.id],
    mounted: true,
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all([hook.close(), botApi.close(), smtp.close()]);
  const all = t.logLines.join('');
  expect(t.logLines.some((l) => l.includes('notification delivery failed'))).toBe(true);
  expect(all).not.toContain(BOT_TOKEN);
  expect(all).not.toContain(SMTP_PASSWORD);
});

async function addChannels(): Promise<void> {
  const create = async (body: unknown) => {
    const res = await send('POST', '/api/admin/alerts/channels/', body);
    expect(res.statusCode, res.body).toBe(204);
  };
  await create({ name: 'hook', type: 'webhook', enabled: true, config: { url: `${hook.url}/h` } });
  await create({
    name: 'bot',
    type: 'telegram',
    enabled: true,
    config: { bot_token: BOT_TOKEN, chat_id: '42' },
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
    },
  });
  const res = await send('PUT', '/api/admin/alerts/settings/', {
    enabled: true,
    channel_ids: [1, 2, 3],
  });
  expect(res.statusCode, res.body).toBe(204);
}

const run = () => t.deps.notifyOutbox.runOnce(t.clock.now());
const items = () =>
  t.sql.all<{ channel_id: number; dedupe_key: string; state: string; attempts: number }>(
    'SELECT channel_id, dedupe_key, state, attempts FROM notify_outbox ORDER BY id',
  );

describe('notification delivery', () => {
  it('sends one message per transition to webhook, Telegram Bot and e-mail', async () => {
    await addChannels();
    await reportCpu(t, node.secret, 0.95);
    await run();
    expect(hook.received).toHaveLength(1);
    const body = JSON.parse(hook.received[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      title: '[ALERT] CPU high on web-01',
      meta: { event_id: 1, transition: 'opened', dedupe_key: 'alert:1:opened:1' },
    });
    expect(hook.received[0]!.headers['x-alert-transition']).toBe('opened');
    expect(botApi.received).toHaveLength(1);
    expect(botApi.received[0]!.url).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(JSON.parse(botApi.received[0]!.body)).toMatchObject({ chat_id: '42' });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ to: ['oncall@example.com'], user: 'ops' });
    expect(smtp.mails[0]!.data).toContain('Subject: [ALERT] CPU high on web-01');
    await run(); // nothing twice
    expect(hook.received).toHaveLength(1);
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.1);
    await run();
    expect(hook.received).toHaveLength(2);
    expect(JSON.parse(hook.received[1]!.body)).toMatchObject({
      title: '[RESOLVED] CPU high on web-01',
    });
    expect(botApi.received).toHaveLength(2);
    expect(smtp.mails).toHaveLength(2);
    expect((await items()).every((i) => i.state === 'sent')).toBe(true);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      delivery_status: 'healthy',
      pending_count: 0,
    });
  });

  it('retries a failing endpoint with backoff and shows retry health', async () => {
    await addChannels();
    hookStatus = (n) => (n <= 2 ? { code: 503 } : { code: 200 });
    await reportCpu(t, node.secret, 0.95);
    await run();
    expect(hook.received).toHaveLength(1);
    const read = (await send('GET', '/api/admin/alerts/channels/1')).json<
      Record<string, unknown>
    >();
    expect(read).toMatchObject({
      delivery_status: 'degraded',
      pending_count: 1,
      blocked_count: 0,
      consecutive_failures: 1,
      last_error_code: 'webhook_http_503',
    });
    expect(read.next_retry_at).toBe(
      new Date(t.clock.now() + 5000).toISOString().replace('.000', ''),
    );
    t.clock.advance(4000);
    await run();
    expect(hook.received).toHaveLength(1); // not due yet
    t.clock.advance(1000);
    await run();
    expect(hook.received).toHaveLength(2); // second failure → 10 s
    t.clock.advance(10_000);
    await run();
    expect(hook.received).toHaveLength(3);
    expect((await items()).find((i) => i.channel_id === 1)).toMatchObject({ state: 'sent' });
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      delivery_status: 'healthy',
      consecutive_failures: 0,
    });
  });

  it('blocks on a deterministic failure and a successful probe wakes the backlog', async () => {
    await addChannels();
    hookStatus = (n) => (n === 1 ? { code: 400 } : { code: 200 });
    await reportCpu(t, node.secret, 0.95);
    await run();
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      blocked_count: 1,
      last_error_code: 'webhook_http_400',
    });
    t.clock.advance(5 * 60_000);
    await run();
    expect(hook.received).toHaveLength(2);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      blocked_count: 0,
      pending_count: 0,
    });
  });

  it('pauses items of a disabled channel and delivers them when re-enabled', async () => {
    await addChannels();
    await send('PUT', '/api/admin/alerts/channels/1/enabled', { enabled: false });
    await reportCpu(t, node.secret, 0.95);
    await run();
    expect(hook.received).toHaveLength(0);
    expect((await items()).find((i) => i.channel_id === 1)?.state).toBe('paused');
    await send('PUT', '/api/admin/alerts/channels/1/enabled', { enabled: true });
    await run();
    expect(hook.received).toHaveLength(1);
  });

  it('honours Telegram retry_after on 429 and blocks on a rejected SMTP login', async () => {
    await addChannels();
    botReply = {
      code: 429,
      body: `{"ok":false,"description":"Too Many Requests for bot${BOT_TOKEN}","parameters":{"retry_after":30}}`,
    };
    const badMail = await send('PUT', '/api/admin/alerts/channels/3', {
      name: 'mail',
      type: 'email',
      enabled: true,
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: smtp.port,
        username: 'ops',
        password: 'wrong-password',
        from: 'dash@example.com',
        to: ['oncall@example.com'],
        use_tls: false,
      },
    });
    expect(badMail.statusCode, badMail.body).toBe(204);
    await reportCpu(t, node.secret, 0.95);
    await run();
    const bot = (await send('GET', '/api/admin/alerts/channels/2')).json<Record<string, string>>();
    expect(bot).toMatchObject({ last_error_code: 'telegram_http_429', pending_count: 1 });
    expect(Date.parse(bot.next_retry_at!)).toBe(t.clock.now() + 30_000);
    expect(bot.last_error).not.toContain(BOT_TOKEN);
    expect((await send('GET', '/api/admin/alerts/channels/3')).json()).toMatchObject({
      last_error_code: 'smtp_535', // SMTP 5xx: deterministic
      blocked_count: 1,
    });
    expect(smtp.mails).toHaveLength(0);
  });
});
