import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminHeaders } from '../../../support/credentials.js';
import { client } from '../alerts/support.js';
import { buildChannelsApp } from './support.js';
import {
  MtprotoCodeError,
  MtprotoPasswordError,
  type MtprotoAccount,
  type MtprotoGateway,
} from '../../../../src/domain/channels/mtproto.js';

const API_HASH = 'api-hash-secret-0123456789';
const SESSION = 'SESSION-string-secret';
const BASE = '/api/admin/alerts/channels/telegram/mtproto';

/** A scripted Telegram: code 12345, password "hunter2" when `twoStep`. */
class FakeMtproto implements MtprotoGateway {
  twoStep = false;
  failLogin = false;
  validSessions = new Set<string>();
  sent: Array<{ chatId: string | number; text: string; session: string }> = [];
  accounts: MtprotoAccount[] = [];
  async startLogin(account: MtprotoAccount) {
    this.accounts.push(account);
    const self: FakeMtproto = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the login object reads the fake's switches
    return {
      async sendCode() {
        return { timeoutSec: 120 };
      },
      async verify(code: string) {
        if (self.failLogin) throw new Error('AUTH_RESTART');
        if (code !== '12345')
          throw new MtprotoCodeError('login code rejected (PHONE_CODE_INVALID)');
        if (self.twoStep) return { passwordRequired: true as const };
        self.validSessions.add(SESSION);
        return { session: SESSION, username: 'ops_user' };
      },
      async password(password: string) {
        if (password !== 'hunter2') throw new MtprotoPasswordError();
        self.validSessions.add(SESSION);
        return { session: SESSION };
      },
      async close() {},
    };
  }
  async check(_a: MtprotoAccount, session: string) {
    return this.validSessions.has(session);
  }
  async send(_a: MtprotoAccount, session: string, chatId: string | number, text: string) {
    this.sent.push({ chatId, text, session });
  }
}

type App = Awaited<ReturnType<typeof buildChannelsApp>>;
let t: App;
let send: ReturnType<typeof client>;
const fake = new FakeMtproto();

beforeAll(async () => {
  t = await buildChannelsApp({ mtproto: fake });
  send = client(t, await adminHeaders(t));
});
beforeEach(async () => {
  fake.twoStep = false;
  fake.failLogin = false;
  fake.validSessions.clear();
  fake.sent.length = 0;
  await t.sql.exec(`DELETE FROM notify_channels;`);
  await t.sql.resetIds(['notify_channels']);
  const res = await send('POST', '/api/admin/alerts/channels/', {
    name: 'me',
    type: 'telegram',
    enabled: true,
    config: {
      mode: 'mtproto',
      api_id: 1234,
      api_hash: API_HASH,
      phone: '+15550001',
      chat_id: 'me',
    },
  });
  expect(res.statusCode, res.body).toBe(204);
});
afterAll(async () => {
  await t.close();
  const all = t.logLines.join('');
  expect(all).not.toContain(API_HASH);
  expect(all).not.toContain(SESSION);
});

const code = async () => {
  const res = await send('POST', `${BASE}/code`, { channel_id: 1 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ login_id: string; timeout: number }>();
};

describe('MTProto login', () => {
  it('logs in with a code, stores the session sealed, and pings valid', async () => {
    const ping0 = await send('POST', `${BASE}/ping`, { channel_id: 1 });
    expect(ping0.json()).toEqual({ valid: false, reason: 'not_logged_in' });
    const test0 = await send('POST', '/api/admin/alerts/channels/1/test', {});
    expect(test0.statusCode).toBe(400);
    expect(test0.json<{ code: string }>().code).toBe('not_logged_in');
    const { login_id, timeout } = await code();
    expect(timeout).toBe(120);
    expect(fake.accounts[0]).toEqual({ apiId: 1234, apiHash: API_HASH, phone: '+15550001' });
    const verify = await send('POST', `${BASE}/verify`, { login_id, code: '12345' });
    expect(verify.statusCode, verify.body).toBe(204);
    const read = await send('GET', '/api/admin/alerts/channels/1');
    expect(read.json()).toMatchObject({
      config: {
        mode: 'mtproto',
        api_id: 1234,
        phone: '+15550001',
        logged_in: true,
        username: 'ops_user',
      },
    });
    expect(read.body).not.toContain(SESSION);
    expect(read.body).not.toContain(API_HASH);
    const row = (await t.sql.get<{ config_sealed: string }>(
      'SELECT config_sealed FROM notify_channels',
    ))!;
    expect(row.config_sealed).not.toContain(SESSION);
    expect((await send('POST', `${BASE}/ping`, { channel_id: 1 })).json()).toEqual({ valid: true });
    expect((await send('POST', '/api/admin/alerts/channels/1/test', {})).statusCode).toBe(204);
    expect(fake.sent[0]).toMatchObject({ chatId: 'me', session: SESSION });
    fake.validSessions.clear();
    expect((await send('POST', `${BASE}/ping`, { channel_id: 1 })).json()).toEqual({
      valid: false,
      reason: 'invalid_session',
    });
  });

  it('asks for the two-step password; a wrong one is invalid_fields', async () => {
    fake.twoStep = true;
    const { login_id } = await code();
    const verify = await send('POST', `${BASE}/verify`, { login_id, code: '12345' });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ password_required: true });
    const wrong = await send('POST', `${BASE}/password`, { login_id, password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ code: string }>().code).toBe('invalid_fields');
    expect(
      (await send('POST', `${BASE}/password`, { login_id, password: 'hunter2' })).statusCode,
    ).toBe(204);
    expect((await send('POST', `${BASE}/ping`, { channel_id: 1 })).json()).toEqual({ valid: true });
  });

  it('answers the login errors', async () => {
    const missing = await send('POST', `${BASE}/verify`, { login_id: 'nope', code: '1' });
    expect(missing.statusCode).toBe(404);
    const noChannel = await send('POST', `${BASE}/code`, { channel_id: 99 });
    expect(noChannel.statusCode).toBe(404);
    const badBody = await send('POST', `${BASE}/code`, { channel_id: 'x' });
    expect(badBody.json<{ code: string }>().code).toBe('invalid_fields');
    const { login_id } = await code();
    const badCode = await send('POST', `${BASE}/verify`, { login_id, code: '00000' });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json<{ code: string }>().code).toBe('invalid_fields');
    const early = await send('POST', `${BASE}/password`, { login_id, password: 'x' });
    expect(early.statusCode).toBe(503);
    expect(early.json<{ code: string }>().code).toBe('login_state_error');
    fake.failLogin = true;
    const broken = await send('POST', `${BASE}/verify`, { login_id, code: '12345' });
    expect(broken.statusCode).toBe(503);
    expect(broken.json<{ code: string }>().code).toBe('login_state_error');
    // The broken login is gone.
    expect((await send('POST', `${BASE}/verify`, { login_id, code: '12345' })).statusCode).toBe(
      404,
    );
  });

  it('a channel replaced after the login started is 409 channel_changed', async () => {
    const { login_id } = await code();
    const put = await send('PUT', '/api/admin/alerts/channels/1', {
      name: 'me2',
      type: 'telegram',
      enabled: true,
      config: { mode: 'mtproto', api_id: 1234, phone: '+15550001', chat_id: 'me' },
    });
    expect(put.statusCode, put.body).toBe(204);
    const verify = await send('POST', `${BASE}/verify`, { login_id, code: '12345' });
    expect(verify.statusCode).toBe(409);
    expect(verify.json<{ code: string }>().code).toBe('channel_changed');
  });

  it('a non-MTProto channel is invalid_fields', async () => {
    await send('POST', '/api/admin/alerts/channels/', {
      name: 'hook',
      type: 'webhook',
      enabled: true,
      config: { url: 'http://127.0.0.1:9/' },
    });
    const res = await send('POST', `${BASE}/code`, { channel_id: 2 });
    expect(res.json<{ code: string }>().code).toBe('invalid_fields');
  });
});
