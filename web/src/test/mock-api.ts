import { vi } from 'vitest';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type Reply = { status?: number; body?: unknown } | undefined;
export type Handler = (call: Call) => Reply | Promise<Reply>;

/**
 * Replaces fetch with a table of "METHOD /path" handlers; unknown routes answer 404 with the
 * API's error body, like Dash does. Every call is recorded for assertions.
 */
export function mockApi(routes: Record<string, Handler | Reply>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://dash.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [
        k.toLowerCase(),
        v,
      ]),
    );
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: Call = { method, path: url.pathname, query: url.searchParams, headers, body };
    calls.push(call);
    if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const route = routes[`${method} ${url.pathname}`];
    const reply = typeof route === 'function' ? await route(call) : route;
    if (!reply) {
      return new Response(JSON.stringify({ code: 'not_found', message: 'not found' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    const status = reply.status ?? 200;
    if (status === 204 || reply.body === undefined) return new Response(null, { status });
    return new Response(JSON.stringify(reply.body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path),
  };
}
