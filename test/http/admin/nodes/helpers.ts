import type { TestApp } from '../../../support/build-app.js';

export interface ListedNode {
  id: number;
  name: string;
  hostname: string;
  ip?: string;
  is_guest_visible: boolean;
  traffic_p95_enabled: boolean;
  traffic_cycle_mode: string;
  traffic_billing_start_day: number;
  traffic_billing_anchor_date: string;
  traffic_billing_timezone: string;
  traffic_direction_mode: string;
  secret: string;
  tags: string[];
  display_order: number;
  group_ids: number[];
  version: { version: string; is_outdated: boolean; supports_auto_update: boolean };
}

/** Thin inject helpers for the admin node endpoints. */
export function nodeApi(t: TestApp, admin: () => Record<string, string>) {
  const send = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: payload === undefined ? admin() : { ...admin(), 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const list = async (url = '/api/admin/nodes/') => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin() });
    if (res.statusCode !== 200) throw new Error(`list: ${res.statusCode} ${res.body}`);
    return res.json<ListedNode[]>();
  };
  const create = async (): Promise<ListedNode> => {
    const before = new Set((await list()).map((n) => n.id));
    const res = await send('POST', '/api/admin/nodes/');
    if (res.statusCode !== 204) throw new Error(`create: ${res.statusCode} ${res.body}`);
    const made = (await list()).find((n) => !before.has(n.id));
    if (!made) throw new Error('created node not listed');
    return made;
  };
  const node = async (id: number) => (await list()).find((n) => n.id === id);
  return { send, list, create, node };
}
