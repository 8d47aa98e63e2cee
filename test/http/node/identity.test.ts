import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { seedNode } from '../../support/seed-nodes.js';
import { InstallIdentity } from '../../../src/domain/nodes/install-identity.js';

let t: TestApp;
let secret: string;

beforeEach(async () => {
  t = await buildTestApp();
  secret = (await seedNode(t)).secret;
});
afterEach(async () => t.close());

const post = (s: string | null = secret) =>
  t.app.inject({
    method: 'POST',
    url: '/api/node/identity',
    headers: { 'content-type': 'application/json', ...(s !== null ? { 'x-node-secret': s } : {}) },
    payload: '{}',
  });

describe('POST /api/node/identity', () => {
  it('creates the install id once, with created=true only for that call', async () => {
    const first = await post();
    expect(first.statusCode).toBe(200);
    const body = first.json<{ install_id: string; created: boolean }>();
    expect(body.install_id).toMatch(/^server_[0-9a-f]{32}$/);
    expect(body.created).toBe(true);
    const second = await post();
    expect(second.json()).toEqual({ install_id: body.install_id, created: false });
    const file = join(t.config.home, 'install_id');
    expect(readFileSync(file, 'utf8')).toBe(`${body.install_id}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps the id across restarts (it lives in DASH_HOME)', async () => {
    const id = (await post()).json<{ install_id: string }>().install_id;
    const again = await new InstallIdentity(t.config.home).get();
    expect(again).toEqual({ installId: id, created: false });
  });

  it('agrees on one id under concurrent first calls, exactly one of them creating it', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => post()));
    const bodies = answers.map((r) => r.json<{ install_id: string; created: boolean }>());
    expect(new Set(bodies.map((b) => b.install_id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
  });

  it('agrees across independent instances racing on the same home (other processes)', async () => {
    const racers = Array.from({ length: 8 }, () => new InstallIdentity(t.config.home));
    const results = await Promise.all(racers.map((r) => r.get()));
    expect(new Set(results.map((r) => r.installId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('answers 503 for a corrupt install id file and never replaces it', async () => {
    const file = join(t.config.home, 'install_id');
    writeFileSync(file, 'server_nothex\n');
    const res = await post();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable' });
    expect(readFileSync(file, 'utf8')).toBe('server_nothex\n');
  });

  it('accepts an empty body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/node/identity',
      headers: { 'x-node-secret': secret },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 without a valid node secret and creates nothing', async () => {
    expect((await post(null)).statusCode).toBe(401);
    const res = await post('nope-nope-nope');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
    expect(() => statSync(join(t.config.home, 'install_id'))).toThrow();
  });
});
