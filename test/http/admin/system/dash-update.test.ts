import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import {
  installedHome,
  publishFake,
  releaseKeys,
  runningRootOf,
} from '../../../support/fake-release.js';
import { tempFeed } from '../../../updater/updater-helpers.js';

const BASE = '/api/admin/system/dash-update';
const keys = releaseKeys();
const json = (headers: Record<string, string>) => ({
  ...headers,
  'content-type': 'application/json',
});

describe('dash-update routes in a checkout (not an installed layout)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await adminHeaders(t);
  });
  afterAll(async () => t.close());

  it('every route requires an admin token', async () => {
    for (const [method, path] of [
      ['GET', 'status'],
      ['GET', 'check'],
      ['POST', 'run'],
      ['GET', 'release-notes'],
    ] as const) {
      const res = await t.app.inject({ method, url: `${BASE}/${path}` });
      expect(res.statusCode).toBe(401);
    }
  });

  it('status says clearly that self-update is unavailable', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/status`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'idle', available: false });
    expect(res.json<{ unavailable_reason: string }>().unavailable_reason).toContain(
      'no release feed configured',
    );
  });

  it('check, run and release-notes answer 503 dash_update_unavailable', async () => {
    const check = await t.app.inject({ method: 'GET', url: `${BASE}/check`, headers: admin });
    expect(check.statusCode).toBe(503);
    expect(check.json()).toMatchObject({ code: 'dash_update_unavailable' });
    const run = await t.app.inject({
      method: 'POST',
      url: `${BASE}/run`,
      headers: json(admin),
      payload: { action: 'update', channel: 'release', lang: 'en' },
    });
    expect(run.statusCode).toBe(503);
    expect(run.json()).toMatchObject({ code: 'dash_update_unavailable' });
    const notes = await t.app.inject({
      method: 'GET',
      url: `${BASE}/release-notes`,
      headers: admin,
    });
    expect(notes.statusCode).toBe(503);
  });

  it('a checkout with a feed still refuses, naming the checkout', async () => {
    const home = await installedHome('1.0.0', keys);
    const t2 = await buildTestApp({ DASH_HOME: home, DASH_UPDATE_FEED: tempFeed() });
    try {
      const res = await t2.app.inject({
        method: 'GET',
        url: `${BASE}/status`,
        headers: await adminHeaders(t2),
      });
      expect(res.json<{ unavailable_reason: string }>().unavailable_reason).toContain(
        'a checkout cannot self-update',
      );
    } finally {
      await t2.close();
    }
  });

  it('other methods answer 405', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/status`, headers: admin });
    expect(res.statusCode).toBe(405);
  });
});

describe('dash-update routes on an installed layout', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let feed: string;
  let release: () => void = () => undefined;
  let parkAt: string | undefined;
  beforeAll(async () => {
    const home = await installedHome('1.0.0', keys);
    feed = tempFeed();
    await publishFake(feed, '1.1.0', keys, {
      notes: '# Highlights\n\n- <script>alert(1)</script> fixed\n- faster & smaller',
    });
    t = await buildTestApp(
      { DASH_HOME: home, DASH_UPDATE_FEED: feed },
      {
        updater: {
          runningRoot: runningRootOf(home),
          runningVersion: '1.0.0',
          restart: () => undefined,
          onPhase: async (phase) => {
            if (phase === parkAt) await new Promise<void>((r) => (release = r));
          },
        },
      },
    );
    admin = await adminHeaders(t);
  });
  afterAll(async () => t.close());

  const check = async (query = '') =>
    t.app.inject({ method: 'GET', url: `${BASE}/check${query}`, headers: admin });
  const run = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `${BASE}/run`,
      headers: json(admin),
      payload: JSON.stringify(payload),
    });

  it('status is available and idle before any job', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/status`, headers: admin });
    expect(res.json()).toMatchObject({ status: 'idle', available: true, current_version: '1.0.0' });
  });

  it('check returns the target and an opaque install_revision', async () => {
    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      current_version: '1.0.0',
      current_channel: 'release',
      target_channel: 'release',
      latest_version: '1.1.0',
      install_revision: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
      version_status: 'available',
      bundled_node_version: t.deps.versions.node,
    });
    expect((await check('?channel=prerelease')).json()).toMatchObject({
      target_channel: 'prerelease',
    });
  });

  it('check rejects an unknown channel with 400 invalid_fields', async () => {
    const res = await check('?channel=nightly');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_fields' });
  });

  it('release-notes are HTML with everything from the manifest escaped', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/release-notes?lang=EN`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ source_url: string; html: string }>();
    expect(body.source_url).toContain('1.1.0.manifest.json');
    expect(body.html).toContain('<h3>Highlights</h3>');
    expect(body.html).toContain('<li>&lt;script&gt;alert(1)&lt;/script&gt; fixed</li>');
    expect(body.html).toContain('faster &amp; smaller');
    expect(body.html).not.toContain('<script>');
    const bad = await t.app.inject({
      method: 'GET',
      url: `${BASE}/release-notes?lang=fr`,
      headers: admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_fields' });
  });

  it.each([
    [{ channel: 'release', lang: 'en' }, 'missing action'],
    [{ action: 'upgrade', channel: 'release', lang: 'en' }, 'bad action'],
    [{ action: 'update', channel: 'beta', lang: 'en' }, 'bad channel'],
    [{ action: 'update', channel: 'release', lang: 'fr' }, 'bad lang'],
    [{ action: 'update', channel: 'release', lang: 'en', target_version: '1.1.0' }, 'partial plan'],
    [
      {
        action: 'update',
        channel: 'release',
        lang: 'en',
        target_version: '0.9.0',
        expected_current_version: '1.0.0',
        expected_install_revision: 'x',
      },
      'target older than current',
    ],
  ] as Array<[Record<string, string>, string]>)(
    'run answers 400 invalid_fields for %j (%s)',
    async (payload) => {
      const res = await run(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_fields' });
    },
  );

  it('run answers 415 for a non-JSON body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/run`,
      headers: { ...admin, 'content-type': 'text/plain' },
      payload: 'action=update',
    });
    expect(res.statusCode).toBe(415);
  });

  it('run answers 409 dash_update_current when the target is what runs', async () => {
    const plan = (await check()).json<{ install_revision: string }>();
    const res = await run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.0.0',
      expected_current_version: '1.0.0',
      expected_install_revision: plan.install_revision,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'dash_update_current' });
  });

  it('a stale plan is accepted (202) and the job fails with install_changed', async () => {
    const res = await run({
      action: 'update',
      channel: 'release',
      lang: 'en',
      target_version: '1.1.0',
      expected_current_version: '1.0.0',
      expected_install_revision: 'f'.repeat(64),
    });
    expect(res.statusCode).toBe(202);
    await t.deps.updater.idle();
    const status = await t.app.inject({ method: 'GET', url: `${BASE}/status`, headers: admin });
    expect(status.json()).toMatchObject({
      status: 'failed',
      failure_code: 'install_changed',
      target_version: '1.1.0',
      exit_code: 1,
    });
  });

  it('run answers 202 with the job, 409 with the running state while it runs, then completes', async () => {
    const plan = (await check()).json<Record<string, string>>();
    parkAt = 'validate';
    const first = await run({
      action: 'update',
      channel: 'release',
      lang: 'zh',
      target_version: plan.latest_version,
      expected_current_version: plan.current_version,
      expected_install_revision: plan.install_revision,
    });
    expect(first.statusCode).toBe(202);
    const job = first.json<{ id: string; status: string }>();
    expect(job).toMatchObject({ status: 'running', action: 'update', channel: 'release' });
    expect(job.id).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]+$/);
    await new Promise((r) => setTimeout(r, 50));
    const second = await run({ action: 'update', channel: 'release', lang: 'en' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ id: job.id, status: 'running' });
    release();
    await t.deps.updater.idle();
    const status = await t.app.inject({ method: 'GET', url: `${BASE}/status`, headers: admin });
    expect(status.json()).toMatchObject({
      id: job.id,
      status: 'completed',
      phase: 'done',
      exit_code: 0,
    });
    expect(status.json<{ log_tail: string }>().log_tail).toContain('updated to 1.1.0');
  });
});

describe('dash-update routes with an unreachable HTTP feed', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const down = createServer((_req, res) => res.writeHead(500).end('boom'));
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(down.address() as AddressInfo).port}/`;
    const home = await installedHome('1.0.0', keys);
    t = await buildTestApp(
      { DASH_HOME: home, DASH_UPDATE_FEED: url },
      { updater: { runningRoot: runningRootOf(home), runningVersion: '1.0.0' } },
    );
    admin = await adminHeaders(t);
    return () => down.close();
  });
  afterAll(async () => t.close());

  it('check answers 502 dash_update_check_failed', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/check`, headers: admin });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'dash_update_check_failed' });
  });

  it('release-notes answers 502 release_notes_fetch_failed', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/release-notes`, headers: admin });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'release_notes_fetch_failed' });
  });

  it('run without a plan answers 502 too (its fresh check fails)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/run`,
      headers: json(admin),
      payload: { action: 'update', channel: 'release', lang: 'en' },
    });
    expect(res.statusCode).toBe(502);
  });
});
