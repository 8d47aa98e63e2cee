import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TARGETS } from '../../../../src/deploy/agent-targets.js';
import { isLoopbackHost, requestBaseUrl } from '../../../../src/domain/nodes/install-address.js';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { fakeBuild } from '../../../support/exe-headers.js';

interface Deploy {
  scripts: { linux: { url: string; command_prefix: string } };
  address: { url: string; source: string; warning?: string };
  agents: { id: string; asset: string; published: boolean; problem?: string }[];
  add_agents_command: string;
}

describe('GET /api/admin/nodes/deploy without a configured public URL', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await adminHeaders(t);
    const deploy = join(t.config.home, 'deploy');
    const amd64 = AGENT_TARGETS.find((x) => x.id === 'linux-amd64')!;
    mkdirSync(join(deploy, 'linux'), { recursive: true });
    writeFileSync(join(deploy, amd64.asset), fakeBuild(amd64, 'v1'));
    // An old JS bundle under a binary name: there, but not a usable standalone build.
    writeFileSync(join(deploy, 'linux', 'node_linux_arm64'), '#!/usr/bin/env node\n');
  });
  afterAll(async () => t.close());

  const get = async (host: string, proto?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/nodes/deploy',
      headers: { ...admin, host, ...(proto ? { 'x-forwarded-proto': proto } : {}) },
    });
    expect(res.statusCode).toBe(200);
    return res.json<Deploy>();
  };

  it("uses the address the admin's browser reached Dash on", async () => {
    const d = await get('192.0.2.10:8080');
    expect(d.address).toEqual({ url: 'http://192.0.2.10:8080', source: 'request' });
    expect(d.scripts.linux.command_prefix).toBe(
      'curl -fsSL http://192.0.2.10:8080/deploy/linux/install.sh | sudo bash -s -- 192.0.2.10 8080 ',
    );
    const script = await t.app.inject({
      method: 'GET',
      url: '/deploy/linux/install.sh',
      headers: { host: '192.0.2.10:8080' },
    });
    expect(script.body).toContain('rendered by Dash for http://192.0.2.10.');
  });

  it('warns when that address is a loopback one', async () => {
    for (const host of ['localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
      const d = await get(host);
      expect(d.address.source).toBe('request');
      expect(d.address.warning).toMatch(/loopback address: only an agent on this machine/);
    }
  });

  it('says which platforms are published and how to add the others', async () => {
    const d = await get('192.0.2.10:8080');
    expect(d.add_agents_command).toBe('make agents');
    expect(d.agents.map((a) => a.asset)).toEqual(AGENT_TARGETS.map((x) => x.asset));
    const byId = Object.fromEntries(d.agents.map((a) => [a.id, a]));
    expect(byId['linux-amd64']).toMatchObject({ published: true });
    expect(byId['linux-arm64']).toMatchObject({
      published: false,
      problem: 'not an executable (no ELF, Mach-O or PE header)',
    });
    expect(byId['windows-amd64']).toEqual(expect.objectContaining({ published: false }));
    expect(byId['windows-amd64']!.problem).toBeUndefined();
  });
});

describe('install address helpers', () => {
  it('recognises loopback hosts', () => {
    for (const h of ['localhost', 'a.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['192.0.2.1', 'dash.example.com', '::2', '128.0.0.1'])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it('builds a base URL only from a plain host header', () => {
    expect(requestBaseUrl('https', 'dash.example.com')).toBe('https://dash.example.com');
    expect(requestBaseUrl('http', '[2001:db8::1]:8080')).toBe('http://[2001:db8::1]:8080');
    expect(requestBaseUrl('http', 'evil.com/path')).toBeNull();
    expect(requestBaseUrl('http', 'user@evil.com')).toBeNull();
    expect(requestBaseUrl('ftp', 'dash.example.com')).toBeNull();
    expect(requestBaseUrl('http', undefined)).toBeNull();
  });
});
