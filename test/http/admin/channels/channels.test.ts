import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../support/credentials.js';
import { client } from '../alerts/support.js';
import { buildChannelsApp, startReceiver } from './support.js';

type App = Awaited<ReturnType<typeof buildChannelsApp>>;
let t: App;
let send: ReturnType<typeof client>;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let hookStatus = 200;

const BOT_TOKEN = '123456:SECRET-bot-token-value';
const WEBHOOK_SECRET = 'hmac-secret-value-42';

beforeAll(async () => {
  t = await buildChannelsApp();
  send = client(t, await adminHeaders(t));
  hook = await startReceiver(() => ({ code: hookStatus }));
});
beforeEach(async () => {
  hookStatus = 200;
  hook.received.length = 0;
  await t.sql.exec(
    `DELETE FROM notify_outbox; DELETE FROM notify_channels;
     UPDATE alert_settings SET channel_ids = '[]';`,
  );
  await t.sql.resetIds(['notify_channels', 'notify_outbox']);
});
afterAll(async () => {
  await hook.close();
  await t.close();
  const all = t.logLines.join('');
  expect(all).not.toContain(BOT_TOKEN);
  expect(all).not.toContain(WEBHOOK_SECRET);
});

const webhook = (over: Record<string, unknown> = {}) => ({
  name: 'Ops hook',
  type: 'webhook',
  enabled: true,
  config: { url: `${hook.url}/hook`, secret: WEBHOOK_SECRET },
  ...over,
});
const bot = {
  name: 'Ops bot',
  type: 'telegram',
  enabled: true,
  config: { bot_token: BOT_TOKEN, chat_id: -100123 },
};

describe('channel CRUD', () => {
  it('creates, lists and reads a channel without its secrets, with health', async () => {
    expect((await send('GET', '/api/admin/alerts/channels/')).json()).toEqual([]);
    expect((await send('POST', '/api/admin/alerts/channels/', webhook())).statusCode).toBe(204);
    expect((await send('POST', '/api/admin/alerts/channels', bot)).statusCode).toBe(204);
    const list = (await send('GET', '/api/admin/alerts/channels')).json<
      Array<Record<string, unknown>>
    >();
    expect(list.map((c) => c.id)).toEqual([2, 1]);
    expect(list[0]).toMatchObject({
      id: 2,
      type: 'telegram',
      config: { mode: 'bot', chat_id: -100123 },
      enabled: true,
      revision: 1,
      delivery_status: 'unknown',
      last_success_at: null,
      next_retry_at: null,
      next_probe_at: null,
      pending_count: 0,
      blocked_count: 0,
      consecutive_failures: 0,
    });
    const one = await send('GET', '/api/admin/alerts/channels/1');
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ name: 'Ops hook', config: { url: `${hook.url}/hook` } });
    expect(one.body).not.toContain(WEBHOOK_SECRET);
    expect(JSON.stringify(list)).not.toContain(BOT_TOKEN);
  });

  it('stores configs encrypted at rest', async () => {
    await send('POST', '/api/admin/alerts/channels/', bot);
    const raw = (await t.sql.get<{ config_sealed: string }>(
      'SELECT config_sealed FROM notify_channels',
    ))!;
    expect(raw.config_sealed).toMatch(/^v1\./);
    expect(raw.config_sealed).not.toContain('SECRET');
  });

  it('rejects invalid bodies with invalid_fields', async () => {
    const cases: unknown[] = [
      webhook({ type: 'pigeon' }),
      webhook({ name: '  ' }),
      webhook({ enabled: undefined }),
      webhook({ config: { url: 'ftp://x' } }),
      webhook({ config: { url: 'http://u:p@x/' } }),
      webhook({ config: { url: 'http://x/', extra: 1 } }),
      { ...bot, config: { chat_id: 1 } },
      {
        ...bot,
        config: { mode: 'mtproto', api_id: -1, api_hash: 'h', phone: '+1', chat_id: 'me' },
      },
      {
        name: 'mail',
        type: 'email',
        enabled: true,
        config: {
          smtp_host: 'h',
          smtp_port: 70000,
          username: '',
          password: '',
          from: 'a@b.c',
          to: ['x@y.z'],
          use_tls: false,
        },
      },
      [],
    ];
    for (const body of cases) {
      const res = await send('POST', '/api/admin/alerts/channels/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('invalid_fields');
    }
  });

  it('answers 400 invalid_id and 404 for bad and unknown ids', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/admin/alerts/channels/abc', undefined],
      ['PUT', '/api/admin/alerts/channels/0', webhook()],
      ['PUT', '/api/admin/alerts/channels/x/enabled', { enabled: true }],
      ['POST', '/api/admin/alerts/channels/-1/test', {}],
      ['DELETE', '/api/admin/alerts/channels/1.5', undefined],
    ] as const) {
      const res = await send(method, url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('invalid_id');
    }
    for (const [method, url, body] of [
      ['GET', '/api/admin/alerts/channels/9', undefined],
      ['PUT', '/api/admin/alerts/channels/9', webhook()],
      ['PUT', '/api/admin/alerts/channels/9/enabled', { enabled: true }],
      ['POST', '/api/admin/alerts/channels/9/test', {}],
      ['DELETE', '/api/admin/alerts/channels/9', undefined],
    ] as const) {
      const res = await send(method, url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json<{ code: string }>().code).toBe('not_found');
    }
  });

  it('replaces a channel, keeping omitted secrets; a stale revision is 409 channel_changed', async () => {
    await send('POST', '/api/admin/alerts/channels/', webhook());
    const res = await send(
      'PUT',
      '/api/admin/alerts/channels/1',
      webhook({ name: 'Renamed', revision: 1, config: { url: `${hook.url}/other`, secret: '' } }),
    );
    expect(res.statusCode, res.body).toBe(204);
    const read = (await send('GET', '/api/admin/alerts/channels/1')).json<
      Record<string, unknown>
    >();
    expect(read).toMatchObject({ name: 'Renamed', revision: 2 });
    expect((await send('POST', '/api/admin/alerts/channels/1/test', {})).statusCode).toBe(204);
    const sig = hook.received[0]?.headers['x-webhook-signature'];
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/); // the kept secret still signs
    expect(hook.received[0]?.url).toBe('/other');
    const stale = await send('PUT', '/api/admin/alerts/channels/1', webhook({ revision: 1 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ code: string }>().code).toBe('channel_changed');
  });

  it('toggles enabled, validates the body, and shows disabled health', async () => {
    await send('POST', '/api/admin/alerts/channels/', webhook());
    const bad = await send('PUT', '/api/admin/alerts/channels/1/enabled', { enabled: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ code: string }>().code).toBe('invalid_fields');
    expect(
      (await send('PUT', '/api/admin/alerts/channels/1/enabled', { enabled: false })).statusCode,
    ).toBe(204);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      enabled: false,
      delivery_status: 'disabled',
    });
  });

  it('deletes a channel and drops it from the alert settings', async () => {
    await send('POST', '/api/admin/alerts/channels/', webhook());
    const put = await send('PUT', '/api/admin/alerts/settings/', {
      enabled: true,
      channel_ids: [1],
    });
    expect(put.statusCode, put.body).toBe(204);
    expect((await send('DELETE', '/api/admin/alerts/channels/1')).statusCode).toBe(204);
    expect((await send('GET', '/api/admin/alerts/settings/')).json()).toMatchObject({
      channel_ids: [],
    });
    expect((await send('DELETE', '/api/admin/alerts/channels/1')).statusCode).toBe(404);
  });

  it('lists a corrupted stored channel with config=null; it can only be deleted', async () => {
    await send('POST', '/api/admin/alerts/channels/', webhook());
    await t.sql.run(`UPDATE notify_channels SET config_sealed = 'v1.garbage'`);
    const list = (await send('GET', '/api/admin/alerts/channels/')).json<
      Array<Record<string, unknown>>
    >();
    expect(list[0]).toMatchObject({ id: 1, config: null });
    const put = await send('PUT', '/api/admin/alerts/channels/1', webhook());
    expect(put.statusCode).toBe(503);
    expect(put.json<{ code: string }>().code).toBe('db_error');
    const test = await send('POST', '/api/admin/alerts/channels/1/test', {});
    expect(test.json<{ code: string }>().code).toBe('db_error');
    const en = await send('PUT', '/api/admin/alerts/channels/1/enabled', { enabled: false });
    expect(en.json<{ code: string }>().code).toBe('db_error');
    expect((await send('DELETE', '/api/admin/alerts/channels/1')).statusCode).toBe(204);
  });

  it('a failed test send is 503 notify_error and recorded in health', async () => {
    await send('POST', '/api/admin/alerts/channels/', webhook());
    hookStatus = 500;
    const res = await send('POST', '/api/admin/alerts/channels/1/test', { title: 'T' });
    expect(res.statusCode).toBe(503);
    expect(res.json<{ code: string }>().code).toBe('notify_error');
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      delivery_status: 'degraded',
      consecutive_failures: 1,
      last_error_code: 'webhook_http_500',
    });
    hookStatus = 200;
    const bad = await send('POST', '/api/admin/alerts/channels/1/test', { title: 5 });
    expect(bad.json<{ code: string }>().code).toBe('invalid_fields');
    expect((await send('POST', '/api/admin/alerts/channels/1/test', {})).statusCode).toBe(204);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      delivery_status: 'healthy',
      consecutive_failures: 0,
      last_error_code: null,
    });
  });

  it('a preset webhook sends its rendered body template', async () => {
    const body = webhook({
      config: {
        url: `${hook.url}/slack`,
        preset: 'slack',
        body_template: '{"text":"*{{title}}*\\n{{message}}"}',
      },
    });
    expect((await send('POST', '/api/admin/alerts/channels/', body)).statusCode).toBe(204);
    expect((await send('GET', '/api/admin/alerts/channels/1')).json()).toMatchObject({
      config: { preset: 'slack' },
    });
    const res = await send('POST', '/api/admin/alerts/channels/1/test', {
      title: 'Hi',
      message: 'there',
    });
    expect(res.statusCode).toBe(204);
    expect(JSON.parse(hook.received[0]!.body)).toEqual({ text: '*Hi*\nthere' });
  });
});
