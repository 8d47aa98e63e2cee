import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { resetFleet } from '../support/fleet.js';
import { GRANT_TTL_MS } from '../../src/domain/nodes/download-grants.js';
import { nodeApi, type ListedNode } from './admin/nodes/helpers.js';

const ASSET = 'linux/node_linux_amd64';
const BYTES = '#!/usr/bin/env node\nconsole.log("agent");\n';

let t: TestApp;
let admin: Record<string, string>;
let node: ListedNode;
beforeAll(async () => {
  t = await buildTestApp({ DASH_PUBLIC_URL: 'https://dash.example.com' });
  admin = await adminHeaders(t);
  const dir = join(t.config.home, 'deploy');
  mkdirSync(join(dir, 'linux'), { recursive: true });
  writeFileSync(join(dir, ASSET), BYTES);
  writeFileSync(join(t.config.home, 'outside.txt'), 'not for download');
  symlinkSync(join(t.config.home, 'outside.txt'), join(dir, 'linux', 'link-out'));
});
beforeEach(async () => {
  await resetFleet(t);
  node = await nodeApi(t, () => admin).create();
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });
const expectPrivate = (res: Awaited<ReturnType<typeof get>>) => {
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.headers.vary).toBe('X-Node-Secret, Accept-Encoding');
};

describe('install scripts', () => {
  it.each([
    ['/deploy/linux/install.sh', 'text/x-shellscript; charset=utf-8', "PLATFORM='linux'"],
    ['/deploy/macos/install.sh', 'text/x-shellscript; charset=utf-8', "PLATFORM='macos'"],
    ['/deploy/windows/install.ps1', 'text/plain; charset=utf-8', "$DashScheme = 'https'"],
  ])('%s is public and rendered for the public URL', async (url, type, marker) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toContain(marker);
    expect(res.body).toContain('dash.example.com');
    const head = await get(url, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
  it('the Windows installer downloads the agent with gzip accepted and decoded', async () => {
    const body = (await get('/deploy/windows/install.ps1')).body;
    // PowerShell 5.1's Invoke-WebRequest never asks for gzip; HttpClient with automatic
    // decompression sends `Accept-Encoding: gzip` and writes the decoded executable.
    expect(body).toContain('AutomaticDecompression = [System.Net.DecompressionMethods]::GZip');
    expect(body).toContain("$request.Headers.Add('X-Node-Secret', $secret)");
    expect(body).not.toMatch(/Invoke-WebRequest[^\n]*\$assetUrl/);
  });
});

describe('agent assets', () => {
  it('refuses requests without valid credentials with a plain-text 401', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-node-secret': 'wrong-secret' },
      { 'x-node-secret': '' },
    ];
    for (const headers of cases) {
      const res = await get(`/deploy/${ASSET}`, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('Unauthorized');
      expectPrivate(res);
    }
  });

  it('serves a live node with its secret, GET and HEAD', async () => {
    const res = await get(`/deploy/${ASSET}`, { 'x-node-secret': node.secret });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(BYTES);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expectPrivate(res);
    const head = await get(`/deploy/${ASSET}`, { 'x-node-secret': node.secret }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(BYTES)));
    expect(head.body).toBe('');
  });

  it('stops serving a rotated or deleted secret at once', async () => {
    const api = nodeApi(t, () => admin);
    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { secret: 'rotated-secret-1' });
    expect((await get(`/deploy/${ASSET}`, { 'x-node-secret': node.secret })).statusCode).toBe(401);
    expect(
      (await get(`/deploy/${ASSET}`, { 'x-node-secret': 'rotated-secret-1' })).statusCode,
    ).toBe(200);
    await api.send('DELETE', `/api/admin/nodes/${node.id}`);
    expect(
      (await get(`/deploy/${ASSET}`, { 'x-node-secret': 'rotated-secret-1' })).statusCode,
    ).toBe(401);
  });

  it('accepts an upgrade_token for exactly its asset path until it expires', async () => {
    const grant = t.deps.downloadGrants.issue(ASSET);
    const ok = await get(`/deploy/${ASSET}?upgrade_token=${grant.token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe(BYTES);
    expect((await get(`/deploy/${ASSET}?upgrade_token=${grant.token}`)).statusCode).toBe(200);
    const other = await get(`/deploy/linux/node_linux_arm64?upgrade_token=${grant.token}`);
    expect(other.statusCode).toBe(401);
    t.clock.advance(GRANT_TTL_MS);
    const expired = await get(`/deploy/${ASSET}?upgrade_token=${grant.token}`);
    expect(expired.statusCode).toBe(401);
    expect(expired.body).toBe('Unauthorized');
    admin = await adminHeaders(t); // the access token aged too
  });

  it('serves the gzip copy to clients that accept gzip, the plain file to the others', async () => {
    const dir = join(t.config.home, 'deploy', 'macos');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'node_macos_arm64'), BYTES);
    writeFileSync(join(dir, 'node_macos_arm64.gz'), gzipSync(BYTES));
    const url = '/deploy/macos/node_macos_arm64';
    const secret = { 'x-node-secret': node.secret };
    const zipped = await get(url, { ...secret, 'accept-encoding': 'gzip, deflate' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expectPrivate(zipped);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(BYTES);
    for (const encoding of [undefined, 'identity', 'gzip;q=0', 'br']) {
      const res = await get(url, encoding ? { ...secret, 'accept-encoding': encoding } : secret);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(BYTES);
    }
    // A gzip copy older than its binary is stale (binary replaced by hand): never served.
    const past = new Date(Date.UTC(2020, 0, 1));
    utimesSync(join(dir, 'node_macos_arm64.gz'), past, past);
    const stale = await get(url, { ...secret, 'accept-encoding': 'gzip' });
    expect(stale.headers['content-encoding']).toBeUndefined();
    expect(stale.body).toBe(BYTES);
  });

  it('answers 404 in plain text for files that are missing or outside the directory', async () => {
    const headers = { 'x-node-secret': node.secret };
    for (const url of [
      '/deploy/linux/node_linux_arm64',
      '/deploy/linux/link-out',
      '/deploy/linux/..%2F..%2Foutside.txt',
      '/deploy/linux/',
      '/deploy/linux',
    ]) {
      const res = await get(url, headers);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toBe('Not Found');
      expectPrivate(res);
    }
    // The router itself refuses dot segments before any handler runs.
    const dots = await get('/deploy/%2E%2E/outside.txt', headers);
    expect(dots.statusCode).toBe(404);
    expect(dots.body).not.toContain('not for download');
  });
});
