import { readdirSync, readlinkSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../src/http/server.js';
import { createSpaHandler } from '../../../src/http/static/spa.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { listenOnLoopback } from '../../support/build-app.js';

/**
 * A client that pipelines many GETs of a large file, never reads and disconnects must not leave
 * descriptors of that file open: Node never closes the responses queued behind the first one.
 */
let app: FastifyInstance;
let port: number;
let bigFile: string;

function openDescriptorsOf(path: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

beforeAll(async () => {
  const root = join(mkdtempSync(join(tmpdir(), 'dash-fd-')), 'dist');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  bigFile = join(root, 'assets', 'index-abc.wasm');
  writeFileSync(bigFile, Buffer.alloc(2_100_000, 'a'));
  app = createHttpServer({
    logger: silentLogger,
    routes: [],
    guards: {},
    fallback: createSpaHandler({ root }),
  });
  port = await listenOnLoopback(app);
});
afterAll(async () => app.close());

describe.runIf(process.platform === 'linux')('static file descriptors', () => {
  it('releases every file of a pipelined, never-read connection once the client goes away', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    const one = 'GET /assets/index-abc.wasm HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(one.repeat(20));
    // Wait until the server has opened the file for the queued requests.
    expect(await until(() => openDescriptorsOf(bigFile) >= 3)).toBe(true);
    socket.destroy();
    expect(await until(() => openDescriptorsOf(bigFile) === 0)).toBe(true);
  });
});
