import { adminGrant } from './render';
import { frontGroups, nodeView, uptimeFor } from './fixtures/nodes';
import type { Handler, Reply } from './mock-api';

export const brand = {
  logo_url: '/brandlogo.svg',
  page_title: 'Acme Monitor',
  topbar_text: 'Acme Ops',
};

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Front reads of a small fleet: two live nodes and one silent for a minute. */
export function frontRoutes(): Record<string, Handler | Reply> {
  const fresh = new Date().toISOString();
  const stale = new Date(Date.now() - 60_000).toISOString();
  const nodes = [
    nodeView(1, 'alpha', fresh, { tags: ['prod'], order: 3 }),
    nodeView(2, 'beta', fresh, { tags: ['edge'], order: 2 }),
    nodeView(3, 'gamma', stale, { order: 1 }),
  ];
  return {
    'GET /api/front/brand': { body: brand },
    'GET /api/front/metrics': { body: nodes },
    'GET /api/front/groups': { body: frontGroups() },
    'GET /api/metrics/uptime': {
      body: uptimeFor(['1', '2', '3'], today(), { 44: 97.5, 43: 90, 42: null }),
    },
    'GET /api/statistics/access': {
      body: { history_guest_access_mode: 'disabled', traffic_guest_access_mode: 'disabled' },
    },
    'POST /api/auth/refresh': adminGrant,
  };
}
