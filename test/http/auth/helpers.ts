import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../support/build-app.js';
import { TEST_ADMIN_PASSWORD } from '../../support/credentials.js';

export interface Cookie {
  name: string;
  value: string;
  attrs: Record<string, string | true>;
}

export function cookiesOf(res: LightMyRequestResponse): Map<string, Cookie> {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out = new Map<string, Cookie>();
  for (const line of list) {
    const [pair = '', ...rest] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const attrs: Record<string, string | true> = {};
    for (const a of rest) {
      const i = a.indexOf('=');
      attrs[(i === -1 ? a : a.slice(0, i)).toLowerCase()] = i === -1 ? true : a.slice(i + 1);
    }
    out.set(pair.slice(0, eq), { name: pair.slice(0, eq), value: pair.slice(eq + 1), attrs });
  }
  return out;
}

export async function login(
  t: TestApp,
  persistence = 'session',
  password = TEST_ADMIN_PASSWORD,
  ip = '10.0.0.1',
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: { password, persistence },
    remoteAddress: ip,
  });
  const cookies = cookiesOf(res);
  const body =
    res.statusCode === 200
      ? res.json<{ access_token: string; expires_at: string; csrf_token: string }>()
      : undefined;
  return {
    res,
    body,
    refresh: cookies.get('refresh')?.value ?? '',
    csrf: cookies.get('csrf')?.value ?? '',
    cookies,
  };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export function proofHeaders(refresh: string, csrfCookie: string, csrfHeader?: string) {
  return {
    cookie: `refresh=${refresh}; csrf=${csrfCookie}`,
    ...(csrfHeader === undefined ? {} : { 'x-csrf-token': csrfHeader }),
  };
}
