import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { defaultWebRoot } from '../../src/http/static/spa.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenOnLoopback, type TestApp } from '../support/build-app.js';
import { seedNode } from '../support/seed-nodes.js';
import { parseRaw, rawRequest } from '../support/raw-http.js';

/**
 * Path traversal on every static route (issue 25), sent raw over a socket so no client
 * normalises the target: no answer ever carries a file from outside its root, none is a 5xx,
 * and valid node credentials do not widen /deploy.
 */
let t: TestApp;
let port: number;
let secret: string;
const MARKER = 'outside-every-root-4c1f';
// Without a built web UI (web/dist) the SPA fallback answers its own 503 page, by design.
const uiBuilt = existsSync(defaultWebRoot());

beforeAll(async () => {
  t = await buildTestApp();
  writeFileSync(join(t.config.home, 'outside.txt'), MARKER);
  mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
  writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), 'agent');
  secret = (await seedNode(t)).secret;
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

const prefixes = ['/', '/assets/', '/deploy/', '/deploy/linux/', '/theme/', '/theme/preview/'];
const climbs = [
  '../',
  '..%2f',
  '..%2F',
  '%2e%2e/',
  '%2e%2e%2f',
  '%252e%252e%252f',
  '..\\',
  '..%5c',
  '....//',
  '.%2e/',
  '%c0%ae%c0%ae/',
  '..;/',
];
const targets = ['outside.txt', 'etc/passwd', 'dash.db', 'secrets/data.key'];

describe('path traversal on static routes', () => {
  it('never serves a file from outside its root, and never a 5xx', async () => {
    const bad: string[] = [];
    let sent = 0;
    for (const prefix of prefixes) {
      for (const climb of climbs) {
        for (const depth of [1, 3, 8]) {
          for (const target of targets) {
            const path = `${prefix}${climb.repeat(depth)}${target}`;
            for (const extra of ['', `X-Node-Secret: ${secret}\r\n`]) {
              const raw = await rawRequest(
                port,
                `GET ${path} HTTP/1.1\r\nHost: dash.test\r\n${extra}Connection: close\r\n\r\n`,
              );
              sent++;
              const res = parseRaw(raw);
              const uiMissing = !uiBuilt && res.status === 503 && !prefix.startsWith('/deploy');
              if ((res.status >= 500 && !uiMissing) || !(res.status > 0))
                bad.push(`${path} → ${res.status}`);
              if (
                raw.includes(MARKER) ||
                raw.includes('root:x:0:0') ||
                raw.includes('SQLite format 3')
              )
                bad.push(`${path} leaked a file`);
              if (res.status === 200 && !['/', '/assets/'].includes(prefix) && extra === '')
                bad.push(`${path} → 200 without credentials`);
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(bad).toEqual([]);
  }, 120_000);
});
