import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet, setReported } from '../../../support/fleet.js';
import type { NodeEvent } from '../../../../src/domain/nodes/node-events.js';
import { nodeApi } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
const events: NodeEvent[] = [];
beforeAll(async () => {
  t = await buildTestApp({ DASH_PUBLIC_URL: 'https://dash.example.com:8443' });
  admin = await adminHeaders(t);
  t.deps.nodeEvents.on((e) => void events.push(e));
});
beforeEach(async () => {
  await resetFleet(t);
  events.length = 0;
});
afterAll(async () => t.close());
const api = () => nodeApi(t, () => admin);

describe('POST /api/admin/nodes/', () => {
  it('creates a hidden placeholder node with a fresh secret, in the default group', async () => {
    const node = await api().create();
    expect(node).toEqual({
      id: 1,
      name: 'Untitled',
      hostname: 'Untitled',
      is_guest_visible: false,
      traffic_p95_enabled: false,
      traffic_cycle_mode: 'calendar_month',
      traffic_billing_start_day: 1,
      traffic_billing_anchor_date: '',
      traffic_billing_timezone: '',
      traffic_direction_mode: 'default',
      secret: expect.stringMatching(/^[A-Za-z0-9]{16}$/) as string,
      tags: [],
      display_order: 1,
      group_ids: [1],
      version: { version: 'unknown', is_outdated: true, supports_auto_update: false },
    });
    expect(t.deps.nodeSecrets.lookup(node.secret)).toBe(node.id);
    expect(events).toEqual([{ type: 'created', nodeId: node.id }]);
  });

  it('answers on the alias, ignores a JSON body and gives each node its own secret', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/nodes',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"name":"ignored"}',
    });
    expect(res.statusCode).toBe(204);
    const second = await api().create();
    const nodes = await api().list('/api/admin/nodes');
    expect(nodes.map((n) => n.id)).toEqual([second.id, 1]);
    expect(nodes[0]?.display_order).toBe(2);
    expect(new Set(nodes.map((n) => n.secret)).size).toBe(2);
  });

  it('stores the secret encrypted and hashed, never in clear', async () => {
    const node = await api().create();
    const row = (await t.sql.get<{ secret_hash: string; secret_enc: string }>(
      'SELECT secret_hash, secret_enc FROM nodes WHERE id = ?',
      node.id,
    ))!;
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_enc).not.toContain(node.secret);
  });
});

describe('GET /api/admin/nodes/', () => {
  it('reports ip when known and version support by SemVer precedence', async () => {
    const a = await api().create();
    const b = await api().create();
    await setReported(t, a.id, { agent_version: '0.2.3', ip: '192.0.2.7', hostname: 'web-1' });
    await setReported(t, b.id, { agent_version: '0.2.3-rc.1' });
    const [nb, na] = await api().list();
    expect(na).toMatchObject({
      ip: '192.0.2.7',
      hostname: 'web-1',
      version: { version: '0.2.3', is_outdated: false, supports_auto_update: true },
    });
    expect(nb?.version).toEqual({
      version: '0.2.3-rc.1',
      is_outdated: false,
      supports_auto_update: false,
    });
    expect(nb).not.toHaveProperty('ip');
  });

  it('reads invalid stored tags as [] and keeps the node listed', async () => {
    const a = await api().create();
    await t.sql.run('UPDATE nodes SET tags = ? WHERE id = ?', '{broken', a.id);
    expect((await api().node(a.id))?.tags).toEqual([]);
    await t.sql.run(
      'UPDATE nodes SET tags = ? WHERE id = ?',
      JSON.stringify(['ok', 'x'.repeat(65), 7]),
      a.id,
    );
    expect((await api().node(a.id))?.tags).toEqual(['ok']);
  });
});

describe('GET /api/admin/nodes/deploy', () => {
  it('renders install commands per platform from the public URL', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/nodes/deploy',
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      address: { url: 'https://dash.example.com:8443', source: 'config' },
      scripts: {
        linux: {
          url: 'https://dash.example.com:8443/deploy/linux/install.sh',
          command_prefix:
            'curl -fsSL https://dash.example.com:8443/deploy/linux/install.sh | sudo bash -s -- dash.example.com 8443 ',
        },
        macos: {
          url: 'https://dash.example.com:8443/deploy/macos/install.sh',
          command_prefix:
            'curl -fsSL https://dash.example.com:8443/deploy/macos/install.sh | sudo bash -s -- dash.example.com 8443 ',
        },
        windows: {
          url: 'https://dash.example.com:8443/deploy/windows/install.ps1',
          command_prefix:
            'iwr -UseBasicParsing https://dash.example.com:8443/deploy/windows/install.ps1 -OutFile install.ps1; powershell -ExecutionPolicy Bypass -File .\\install.ps1 dash.example.com 8443 ',
        },
      },
    });
  });
});
