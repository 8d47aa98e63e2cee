import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, tempHome, type TestApp } from '../support/build-app.js';
import { adminHeaders } from '../support/credentials.js';
import { nodeApi, type ListedNode } from '../http/admin/nodes/helpers.js';
import { hostAgentTarget } from '../../src/deploy/agent-targets.js';
import { buildHostAgent } from '../support/agent-binary.js';

const run = promisify(execFile);

/** Stands in for the agent: records how the installer called it. */
const FAKE_AGENT = `#!/usr/bin/env node
require('fs').appendFileSync(process.env.FAKE_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
`;

let t: TestApp;
let port: number;
let node: ListedNode;
let work: string;

beforeAll(async () => {
  t = await buildTestApp({ DASH_PUBLIC_URL: 'http://127.0.0.1' }, { nodeVersion: '0.3.0' });
  const admin = await adminHeaders(t);
  node = await nodeApi(t, () => admin).create();
  for (const arch of ['amd64', 'arm64']) {
    mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
    writeFileSync(join(t.config.home, 'deploy', 'linux', `node_linux_${arch}`), FAKE_AGENT);
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  work = tempHome();
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'systemctl'), `#!/bin/sh\necho "systemctl $*" >> "$FAKE_LOG"\n`);
  chmodSync(join(work, 'bin', 'systemctl'), 0o755);
});
afterAll(async () => t.close());

describe('the rendered Linux installer', () => {
  it('downloads the agent with the secret, switches current and installs the service', async () => {
    const script = (await t.app.inject({ method: 'GET', url: '/deploy/linux/install.sh' })).body;
    writeFileSync(join(work, 'install.sh'), script);
    const log = join(work, 'calls.log');
    const home = join(work, 'agent');
    await run(
      'bash',
      [join(work, 'install.sh'), '127.0.0.1', String(port), node.secret, '5', '--net', 'eth0'],
      {
        env: {
          ...process.env,
          PATH: `${join(work, 'bin')}:${process.env.PATH ?? ''}`,
          FAKE_LOG: log,
          NODEAGENT_HOME: home,
          NODEAGENT_UNIT_DIR: join(work, 'units'),
          NODEAGENT_ALLOW_NON_ROOT: '1',
          NODEAGENT_INIT: 'systemd',
        },
      },
    );
    expect(readFileSync(join(home, 'releases', '0.3.0', 'nodeagent'), 'utf8')).toBe(FAKE_AGENT);
    expect(readlinkSync(join(home, 'current'))).toBe('releases/0.3.0');
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    // The download is started once before anything is replaced, to prove it runs on this host.
    expect(JSON.parse(calls.shift() ?? '')).toEqual(['--version']);
    expect(JSON.parse(calls[0] ?? '')).toEqual([
      'report',
      'install',
      `http://127.0.0.1:${port}/api/node/metrics`,
      node.secret,
    ]);
    expect(calls.slice(1)).toEqual([
      'systemctl daemon-reload',
      'systemctl enable nodeagent',
      'systemctl restart nodeagent',
    ]);
    const unit = readFileSync(join(work, 'units', 'nodeagent.service'), 'utf8');
    expect(unit).toContain(`ExecStart=${join(home, 'current', 'nodeagent')} push 5 --net eth0\n`);
    expect(unit).toContain(`Environment=NODE_REPORT_CONFIG=${join(home, 'report.yaml')}\n`);
    expect(unit).not.toMatch(/ExecStart=\S*\/node /);
  });

  it('fails without installing anything when the secret is wrong', async () => {
    const home = join(work, 'agent-bad');
    const res = await run(
      'bash',
      [join(work, 'install.sh'), '127.0.0.1', String(port), 'not-a-node-secret'],
      {
        env: {
          ...process.env,
          FAKE_LOG: join(work, 'bad.log'),
          NODEAGENT_HOME: home,
          NODEAGENT_UNIT_DIR: join(work, 'units-bad'),
          NODEAGENT_ALLOW_NON_ROOT: '1',
        },
      },
    ).catch((err: { code: number; stderr: string }) => err);
    expect(res).toMatchObject({ code: 1 });
    expect((res as { stderr: string }).stderr).toContain('download failed');
    expect(() => readlinkSync(join(home, 'current'))).toThrow();
  });
});

describe('the rendered Linux installer with the real standalone agent (OpenRC)', () => {
  it('installs a binary that registers with Dash, and an OpenRC service that supervises it', async () => {
    const binary = buildHostAgent();
    const target = hostAgentTarget()!;
    writeFileSync(join(t.config.home, 'deploy', target.asset), readFileSync(binary));
    const script = (await t.app.inject({ method: 'GET', url: '/deploy/linux/install.sh' })).body;
    writeFileSync(join(work, 'install-rc.sh'), script);
    const bin = join(work, 'rc-bin');
    mkdirSync(bin);
    for (const tool of ['rc-update', 'rc-service']) {
      writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "$FAKE_LOG"\n`);
      chmodSync(join(bin, tool), 0o755);
    }
    const log = join(work, 'rc.log');
    const home = join(work, 'agent-rc');
    await run('bash', [join(work, 'install-rc.sh'), '127.0.0.1', String(port), node.secret, '3'], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        FAKE_LOG: log,
        NODEAGENT_HOME: home,
        NODEAGENT_INITD_DIR: join(work, 'init.d'),
        NODEAGENT_ALLOW_NON_ROOT: '1',
        NODEAGENT_INIT: 'openrc',
      },
    });
    // report install really talked to Dash: the target carries Dash's install id.
    const config = readFileSync(join(home, 'report.yaml'), 'utf8');
    expect(config).toContain(node.secret);
    expect(config).toMatch(/server_install_id: "server_[0-9a-f]{32}"/);
    const rc = readFileSync(join(work, 'init.d', 'nodeagent'), 'utf8');
    expect(rc.startsWith('#!/sbin/openrc-run\n')).toBe(true);
    expect(rc).toContain(`command="${join(home, 'current', 'nodeagent')}"`);
    expect(rc).toContain('command_args="push 3"');
    expect(rc).toContain('supervisor=supervise-daemon');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      'rc-update add nodeagent default',
      'rc-service nodeagent restart',
    ]);
  }, 120_000);
});
