import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { TEST_ADMIN_PASSWORD } from '../support/credentials.js';
import { agentReport } from '../support/agent-payloads.js';
import { bearer, login, proofHeaders } from '../http/auth/helpers.js';

/**
 * Secrets (issue 25): a whole admin and agent session logged at trace level leaves no admin
 * password, password guess, node secret, access or refresh token, CSRF token or channel
 * secret in the log, and the database holds only digests or ciphertext of each.
 */
let t: TestApp;
const lines: string[] = [];
const secrets: Record<string, string> = {
  'admin password': TEST_ADMIN_PASSWORD,
  'a wrong password guess': 'guess-Wrong-Password-77',
  'a chosen node secret': 'chosen-node-secret-0042',
  'a webhook HMAC key': 'webhook-hmac-key-0042',
  'a bot token': '987654:bot-token-value-0042',
  'an SMTP password': 'smtp-password-value-0042',
};
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  t = await buildTestApp(
    {},
    { log: createLogger('trace', { write: (line: string) => void lines.push(line) }) },
  );
});
afterAll(async () => t.close());

describe('secrets stay out of logs and the database', () => {
  it('after logins, refreshes, node and channel management and reports', async () => {
    const wrong = await login(t, 'session', secrets['a wrong password guess']);
    expect(wrong.res.statusCode).toBe(401);
    const s = await login(t, 'persistent');
    const admin = bearer(s.body!.access_token);
    secrets['an access token'] = s.body!.access_token;
    secrets['a refresh cookie'] = s.refresh;
    secrets['a CSRF token'] = s.csrf;
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: proofHeaders(s.refresh, s.csrf, s.csrf),
    });
    expect(refreshed.statusCode).toBe(200);
    secrets['a refreshed access token'] = refreshed.json<{ access_token: string }>().access_token;

    // A node with a generated secret, then given a chosen one.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/nodes/', headers: admin })).statusCode,
    ).toBe(204);
    const [node] = (
      await t.app.inject({ method: 'GET', url: '/api/admin/nodes/', headers: admin })
    ).json<Array<{ id: number; secret: string }>>();
    secrets['a generated node secret'] = node!.secret;
    const report = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/node/metrics',
        headers: { ...json, 'x-node-secret': secret },
        payload: JSON.stringify(agentReport()),
      });
    expect((await report(node!.secret)).statusCode).toBe(200);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/nodes/${node!.id}`,
      headers: { ...admin, ...json },
      payload: JSON.stringify({ secret: secrets['a chosen node secret'] }),
    });
    expect(patched.statusCode).toBeLessThan(300);
    expect((await report(secrets['a chosen node secret']!)).statusCode).toBe(200);
    expect((await report('wrong-node-secret-guess-1')).statusCode).toBe(401);
    // A storage failure is logged with its error and the request's node: still no secret.
    t.raw.pragma('query_only = ON');
    expect((await report(secrets['a chosen node secret']!)).statusCode).toBe(503);
    t.raw.pragma('query_only = OFF');

    for (const channel of [
      {
        name: 'hook',
        type: 'webhook',
        enabled: false,
        config: { url: 'https://hooks.example.com/x', secret: secrets['a webhook HMAC key'] },
      },
      {
        name: 'bot',
        type: 'telegram',
        enabled: false,
        config: { bot_token: secrets['a bot token'], chat_id: -100 },
      },
      {
        name: 'mail',
        type: 'email',
        enabled: false,
        config: {
          smtp_host: 'smtp.example.com',
          smtp_port: 465,
          username: 'dash',
          password: secrets['an SMTP password'],
          from: 'dash@example.com',
          to: ['ops@example.com'],
          use_tls: true,
        },
      },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/alerts/channels/',
        headers: { ...admin, ...json },
        payload: JSON.stringify(channel),
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: proofHeaders(s.refresh, s.csrf, s.csrf),
    });
    expect(out.statusCode).toBe(204);

    // The run was logged (requests at least), and holds none of the values.
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('');
    for (const [what, value] of Object.entries(secrets))
      expect(log.includes(value), `${what} in the log`).toBe(false);

    // Every cell of every table, as text: only digests or ciphertext.
    const db = t.raw;
    const tables = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
    let dump = '';
    for (const name of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]) {
        for (const cell of row)
          dump += Buffer.isBuffer(cell) ? cell.toString('latin1') : `${String(cell)}\n`;
      }
    }
    expect(dump.length).toBeGreaterThan(1000);
    for (const [what, value] of Object.entries(secrets))
      expect(dump.includes(value), `${what} in the database`).toBe(false);
  });
});
