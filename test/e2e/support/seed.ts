import { metricsReport, SEED_NODES, staticPayload, type SeedNode } from './payloads.js';

/** Minimal typed client for seeding through the public API, as an admin and as agents. */
export class SeedClient {
  private token = '';

  constructor(private readonly baseUrl: string) {}

  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    const type = res.headers.get('content-type') ?? '';
    return (type.includes('json') && text ? JSON.parse(text) : text) as T;
  }

  async login(password: string): Promise<void> {
    const grant = await this.call<{ access_token: string }>('POST', '/api/auth/login', {
      password,
      persistence: 'session',
    });
    this.token = grant.access_token;
  }

  async report(secret: string, path: '/api/node/static' | '/api/node/metrics', body: unknown) {
    const saved = this.token;
    this.token = '';
    try {
      await this.call('POST', path, body, { 'X-Node-Secret': secret });
    } finally {
      this.token = saved;
    }
  }
}

export interface SeededNode {
  id: number;
  secret: string;
  spec: SeedNode;
  index: number;
}

interface AdminNodeItem {
  id: number;
  secret: string;
}

/** Creates groups and nodes as an admin would, then has each node report like an agent. */
export async function seed(baseUrl: string, password: string): Promise<SeededNode[]> {
  const api = new SeedClient(baseUrl);
  await api.login(password);
  await api.call('POST', '/api/admin/groups/', { name: 'edge', remark: 'edge POPs' });
  const groups = await api.call<{ id: number; name: string }[]>('GET', '/api/admin/groups/');
  const edge = groups.find((g) => g.name === 'edge');
  const seeded: SeededNode[] = [];
  for (const [index, spec] of SEED_NODES.entries()) {
    const before = new Set(
      (await api.call<AdminNodeItem[]>('GET', '/api/admin/nodes/')).map((n) => n.id),
    );
    await api.call('POST', '/api/admin/nodes/');
    const after = await api.call<AdminNodeItem[]>('GET', '/api/admin/nodes/');
    const created = after.find((n) => !before.has(n.id));
    if (!created) throw new Error('node creation did not show in the list');
    const groupIds = [1, ...(spec.groups.includes('edge') && edge ? [edge.id] : [])];
    await api.call('PATCH', `/api/admin/nodes/${created.id}`, {
      name: spec.name,
      tags: spec.tags,
      is_guest_visible: spec.guestVisible,
      group_ids: groupIds,
    });
    const node = { id: created.id, secret: created.secret, spec, index };
    await api.report(node.secret, '/api/node/static', staticPayload(spec, index, new Date()));
    await api.report(node.secret, '/api/node/metrics', metricsReport(spec, index, 0, new Date()));
    seeded.push(node);
  }
  return seeded;
}

/**
 * Keeps the seeded nodes reporting every `intervalMs`, like agents, until stopped or
 * `maxMs` has passed (bounded so a hung test cannot leave it running).
 */
export function startReporting(
  baseUrl: string,
  nodes: SeededNode[],
  intervalMs = 2000,
  maxMs = 15 * 60_000,
): () => Promise<void> {
  const api = new SeedClient(baseUrl);
  const started = Date.now();
  let tick = 1;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped || Date.now() - started > maxMs) {
      clearInterval(timer);
      return;
    }
    const t = tick++;
    running = Promise.all(
      nodes.map((n) =>
        api.report(n.secret, '/api/node/metrics', metricsReport(n.spec, n.index, t, new Date())),
      ),
    ).then(
      () => undefined,
      () => undefined,
    );
  }, intervalMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
