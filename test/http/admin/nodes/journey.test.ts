import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import type { NodeEvent } from '../../../../src/domain/nodes/node-events.js';
import { nodeApi } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
const events: NodeEvent[] = [];
beforeAll(async () => {
  t = await buildTestApp({ DASH_PUBLIC_URL: 'https://fleet.example.org' });
  admin = await adminHeaders(t);
  t.deps.nodeEvents.on((e) => void events.push(e));
  mkdirSync(join(t.config.home, 'deploy', 'linux'), { recursive: true });
  writeFileSync(join(t.config.home, 'deploy', 'linux', 'node_linux_amd64'), 'agent');
});
afterAll(async () => t.close());

/**
 * The acceptance path: every step is visible in the admin list, to ingest (secret
 * index), to agent downloads and to hot state (node events) as soon as the call returns.
 */
describe('an admin organises a node from creation to deletion', () => {
  it('creates, deploys, renames, tags, groups, re-keys, hides/shows, reorders and deletes', async () => {
    const api = nodeApi(t, () => admin);
    const download = (secret: string) =>
      t.app.inject({
        method: 'GET',
        url: '/deploy/linux/node_linux_amd64',
        headers: { 'x-node-secret': secret },
      });

    const uptimeIds = async (headers: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: '/api/metrics/uptime', headers }))
        .json<{ nodes: Array<{ server_id: string }> }>()
        .nodes.map((n) => n.server_id);

    const node = await api.create();
    const first = await api.create();
    expect(await uptimeIds(admin)).toContain(String(node.id));
    expect(await uptimeIds({})).not.toContain(String(node.id));
    expect(t.deps.nodeSecrets.lookup(node.secret)).toBe(node.id);
    expect((await download(node.secret)).statusCode).toBe(200);

    const deploy = await t.app.inject({
      method: 'GET',
      url: '/api/admin/nodes/deploy',
      headers: admin,
    });
    const command = `${deploy.json<{ scripts: { linux: { command_prefix: string } } }>().scripts.linux.command_prefix}${node.secret}`;
    expect(command).toBe(
      `curl -fsSL https://fleet.example.org/deploy/linux/install.sh | sudo bash -s -- fleet.example.org ${node.secret}`,
    );
    const script = await t.app.inject({ method: 'GET', url: '/deploy/linux/install.sh' });
    expect(script.statusCode).toBe(200);

    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { name: 'edge-1' });
    expect((await api.node(node.id))?.name).toBe('edge-1');

    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { tags: ['eu', 'edge'] });
    expect((await api.node(node.id))?.tags).toEqual(['eu', 'edge']);

    await api.send('POST', '/api/admin/groups/', { name: 'Europe' });
    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { group_ids: [2] });
    expect((await api.node(node.id))?.group_ids).toEqual([2]);
    const map = await t.app.inject({ method: 'GET', url: '/api/admin/groups/', headers: admin });
    expect(map.json()).toContainEqual({ id: 2, name: 'Europe', remark: '', server_count: 1 });

    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { secret: 'edge-1-new-secret' });
    expect((await api.node(node.id))?.secret).toBe('edge-1-new-secret');
    expect(t.deps.nodeSecrets.lookup(node.secret)).toBeUndefined();
    expect(t.deps.nodeSecrets.lookup('edge-1-new-secret')).toBe(node.id);
    expect((await download(node.secret)).statusCode).toBe(401);
    expect((await download('edge-1-new-secret')).statusCode).toBe(200);

    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { is_guest_visible: true });
    expect((await api.node(node.id))?.is_guest_visible).toBe(true);
    expect(await uptimeIds({})).toContain(String(node.id));
    await api.send('PATCH', `/api/admin/nodes/${node.id}`, { is_guest_visible: false });
    expect((await api.node(node.id))?.is_guest_visible).toBe(false);
    expect(await uptimeIds({})).not.toContain(String(node.id));

    expect((await api.list()).map((n) => n.id)).toEqual([first.id, node.id]);
    await api.send('PUT', '/api/admin/nodes/display-order', { ids: [node.id, first.id] });
    expect((await api.list()).map((n) => n.id)).toEqual([node.id, first.id]);

    await api.send('DELETE', `/api/admin/nodes/${node.id}`);
    expect((await api.list()).map((n) => n.id)).toEqual([first.id]);
    expect(t.deps.nodeSecrets.lookup('edge-1-new-secret')).toBeUndefined();
    expect((await download('edge-1-new-secret')).statusCode).toBe(401);
    expect(await uptimeIds(admin)).toEqual([String(first.id)]);

    expect(events).toEqual([
      { type: 'created', nodeId: node.id },
      { type: 'created', nodeId: first.id },
      ...Array.from({ length: 6 }, () => ({ type: 'updated', nodeId: node.id })),
      { type: 'reordered' },
      { type: 'deleted', nodeId: node.id },
    ]);
  });
});
