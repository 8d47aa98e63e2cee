import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../src/agent/version.js';
import { nodeReportViolations, staticViolations } from './support/payload-rules.js';
import { StubDash } from './support/stub-dash.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const OUT = mkdtempSync(join(tmpdir(), 'nodeagent-bundle-'));
const BUNDLE = join(OUT, 'nodeagent.mjs');
let dash: StubDash;

beforeAll(async () => {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'build-agent.mjs'), '--outdir', OUT],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status, r.stderr).toBe(0);
  dash = await new StubDash().start();
});
afterAll(async () => {
  await dash.stop();
});

function agent(args: string[], env: Record<string, string> = {}, file = BUNDLE) {
  return spawnSync(file, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 20_000,
  });
}

/** Like agent(), without blocking the event loop the stub Dash answers on. */
function agentAsync(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(BUNDLE, args, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const tempConfig = (): string => join(mkdtempSync(join(tmpdir(), 'nodeagent-cli-')), 'report.yaml');

describe('the bundled agent', () => {
  it('is one executable file with a shebang that imports only Node built-ins', () => {
    const text = readFileSync(BUNDLE, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(BUNDLE).mode & 0o111).not.toBe(0);
    const specifiers = [...text.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) expect(s).toMatch(/^node:/);
    expect(text).not.toMatch(/\brequire\(/);
    expect(readFileSync(join(OUT, 'VERSION'), 'utf8')).toBe(`${AGENT_VERSION}\n`);
  });

  it('prints its version, and usage with status 2 on a bad command', () => {
    const v = agent(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(`${AGENT_VERSION}\n`);
    const bad = agent(['frobnicate']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('nodeagent push [interval_seconds]');
  });

  it('runs as an extensionless file from a managed layout path', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'nodeagent-managed-')), 'releases', AGENT_VERSION);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'nodeagent');
    copyFileSync(BUNDLE, file);
    const r = agent(['--version'], {}, file);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${AGENT_VERSION}\n`);
  });

  it('installs a target with report install and changes its key with report update', async () => {
    const config = tempConfig();
    const env = { NODE_REPORT_CONFIG: config };
    const install = await agentAsync(['report', 'install', dash.url(), 'node-secret'], env);
    expect(install.status, install.stderr).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(readFileSync(config, 'utf8')).toContain('"node-secret"');
    const id = `server_${'ab'.repeat(16)}`;
    const update = agent(['report', 'update', id, 'rotated-secret'], env);
    expect(update.status, update.stderr).toBe(0);
    expect(readFileSync(config, 'utf8')).toContain('"rotated-secret"');
    expect(agent(['report', 'update', 'server_unknown', 'x'], env).status).toBe(2);
    expect(
      (await agentAsync(['report', 'install', dash.url('/api/node/x'), 'k'], env)).status,
    ).toBe(2);
  });

  it('refuses to push without targets, or with only plain-HTTP ones under --require-https', () => {
    const empty = agent(['push'], { NODE_REPORT_CONFIG: tempConfig() });
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('report install');
    const config = tempConfig();
    writeFileSync(config, `targets:\n  - url: "${dash.url()}"\n    key: "k"\n`);
    const strict = agent(['push', '--require-https'], { NODE_REPORT_CONFIG: config });
    expect(strict.status).toBe(2);
    expect(strict.stderr).toContain('not HTTPS');
    expect(agent(['push', '0'], { NODE_REPORT_CONFIG: config }).status).toBe(2);
    expect(agent(['push', '--net'], { NODE_REPORT_CONFIG: config }).status).toBe(2);
  });

  it('pushes Static and reports every interval, and stops cleanly on SIGTERM', async () => {
    const config = tempConfig();
    writeFileSync(config, `targets:\n  - url: "${dash.url()}"\n    key: "push-secret"\n`);
    const before = dash.received.length;
    const child = spawn(BUNDLE, ['push', '1', '--debug'], {
      env: { ...process.env, NODE_REPORT_CONFIG: config },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const mine = () => dash.received.slice(before).filter((r) => r.secret === 'push-secret');
    for (let i = 0; i < 100 && mine().filter((r) => r.path.endsWith('/metrics')).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const got = mine();
    expect(got[0]!.path).toBe('/api/node/static');
    expect(staticViolations(got[0]!.json)).toEqual([]);
    const reports = got.filter((r) => r.path.endsWith('/metrics'));
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const r of reports) expect(nodeReportViolations(r.json)).toEqual([]);
    expect(stderr).toContain('report accepted');
    expect(stderr).not.toContain('push-secret');
  });
});
