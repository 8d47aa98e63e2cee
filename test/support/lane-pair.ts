import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/deps.js';

/**
 * Fast lanes only run behind a real socket (inject bypasses the server factory), so lane tests
 * send each request over TCP to two apps on the same deps — one with lanes, one without — and
 * compare the answers; a hook counts what reached Fastify on the app with lanes.
 */

export interface Answer {
  status: number;
  /** Response headers without `date`. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface LanePair {
  withLanes: FastifyInstance;
  routerOnly: FastifyInstance;
  /** Requests that reached Fastify on the app with lanes, so far. */
  routed(): number;
  close(): Promise<void>;
}

export function send(app: FastifyInstance, s: Sent): Promise<Answer> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: s.method ?? 'GET',
        path: s.path,
        headers: s.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const { date, ...headers } = res.headers;
          void date;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on('error', reject);
    req.end(s.body);
  });
}

export async function startLanePair(deps: AppDeps): Promise<LanePair> {
  let routed = 0;
  const withLanes = buildApp(deps);
  withLanes.addHook('onRequest', (_req, _reply, done) => {
    routed++;
    done();
  });
  const routerOnly = buildApp(deps, { fastLanes: false });
  await withLanes.listen({ host: '127.0.0.1', port: 0 });
  await routerOnly.listen({ host: '127.0.0.1', port: 0 });
  return {
    withLanes,
    routerOnly,
    routed: () => routed,
    async close() {
      await withLanes.close();
      await routerOnly.close();
    },
  };
}
