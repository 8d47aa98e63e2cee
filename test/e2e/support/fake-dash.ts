import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { createSpaHandler } from '../../../src/http/static/spa.js';
import { REPO_ROOT, type RunningDash } from './dash.js';
import {
  cookies,
  fail,
  num,
  projectView,
  str,
  syntheticHistory,
  type Json,
  type Node,
} from './fake-projection.js';

/**
 * Stand-in for Dash while its endpoints are being built: the documented shapes (spec §2, §4,
 * reference §4, §5, §7, §9.1) held in memory, with the real SPA handler serving web/dist.
 * Node reports are projected into front views, so the same seeding drives both backends.
 */

export async function startFakeDash(): Promise<RunningDash> {
  const password = 'e2e-Admin-Password-1';
  const nodes: Node[] = [];
  const groups = [{ id: 1, name: 'default', remark: '' }];
  const sessions = new Map<string, { refresh: string; csrf: string; sessionOnly: boolean }>();
  const tokens = new Map<string, string>();
  let settings: Json = {
    history_guest_access_mode: 'disabled',
    dash_update_channel: 'release',
    dash_update_mode: 'manual',
    logo_url: '/brandlogo.svg',
    page_title: 'Dash Monitor',
    topbar_text: 'Dash Control',
    uptime_guest_visible: true,
    uptime_warning_sla: 99,
    uptime_error_sla: 95,
  };
  let traffic: Json = { guest_access_mode: 'disabled', usage_mode: 'lite', direction_mode: 'out' };
  let nextNode = 1;
  let nextGroup = 2;

  const app = Fastify();
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
  const isAdmin = (req: FastifyRequest) => {
    const h = req.headers.authorization ?? '';
    return h.startsWith('Bearer ') && tokens.has(h.slice(7));
  };
  const sidOf = (req: FastifyRequest) => tokens.get((req.headers.authorization ?? '').slice(7));
  const admin =
    (handler: (req: FastifyRequest, reply: FastifyReply) => unknown) =>
    (req: FastifyRequest, reply: FastifyReply) =>
      isAdmin(req) ? handler(req, reply) : fail(reply, 401, 'unauthorized');
  const grant = (reply: FastifyReply, sid: string) => {
    const s = sessions.get(sid)!;
    s.refresh = randomBytes(16).toString('hex');
    s.csrf = randomBytes(16).toString('hex');
    const access = randomBytes(16).toString('hex');
    tokens.set(access, sid);
    const age = s.sessionOnly ? '' : '; Max-Age=1209600';
    void reply.header('set-cookie', [
      `refresh=${s.refresh}; Path=/api/auth; HttpOnly; SameSite=Strict${age}`,
      `csrf=${s.csrf}; Path=/; SameSite=Strict${age}`,
    ]);
    return {
      access_token: access,
      expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
      csrf_token: s.csrf,
    };
  };
  const sessionFromCookie = (req: FastifyRequest) => {
    const c = cookies(req);
    const header = String(req.headers['x-csrf-token'] ?? '').trim();
    for (const [sid, s] of sessions) {
      if (s.refresh === c.refresh && s.csrf === c.csrf && header === s.csrf) return sid;
    }
    return null;
  };
  const visible = (req: FastifyRequest) => nodes.filter((n) => isAdmin(req) || n.guest);
  const byId = (id: unknown) => nodes.find((n) => n.id === Number(id));
  const bySecret = (req: FastifyRequest) =>
    nodes.find((n) => n.secret === req.headers['x-node-secret']);

  app.get('/api/version/', () => ({ version: '0.0.0-e2e', node_version: '0.2.3' }));
  app.get('/api/front/brand', () => ({
    logo_url: settings.logo_url,
    page_title: settings.page_title,
    topbar_text: settings.topbar_text,
  }));
  app.get('/api/front/metrics', (req) =>
    visible(req)
      .map(projectView)
      .filter(Boolean)
      .sort((a, b) => num((b!.node as Json).order) - num((a!.node as Json).order)),
  );
  app.get('/api/front/groups', (req) => {
    const ids = new Set(visible(req).map((n) => n.id));
    return groups
      .map((g) => ({
        id: g.id,
        name: g.name,
        node_ids: nodes.filter((n) => ids.has(n.id) && n.groups.includes(g.id)).map((n) => n.id),
      }))
      .filter((g) => isAdmin(req) || g.node_ids.length > 0);
  });
  app.get('/api/statistics/access', () => ({
    history_guest_access_mode: settings.history_guest_access_mode,
    traffic_guest_access_mode: traffic.guest_access_mode,
  }));
  app.get('/api/metrics/uptime', (req) => {
    const enabled = isAdmin(req) || settings.uptime_guest_visible === true;
    const today = Date.parse(new Date().toISOString().slice(0, 10));
    return {
      enabled,
      timezone: 'UTC',
      generated_at: new Date().toISOString(),
      warning_sla: settings.uptime_warning_sla,
      error_sla: settings.uptime_error_sla,
      nodes: enabled
        ? visible(req).map((n) => ({
            server_id: String(n.id),
            days: Array.from({ length: 45 }, (_, i) => {
              const percent = i < 30 ? null : i === 40 ? 97.2 : i === 42 ? 91.5 : 100;
              return {
                date: new Date(today - (44 - i) * 86_400_000).toISOString().slice(0, 10),
                percent,
                observed_ms: percent === null ? 0 : 86_400_000,
              };
            }),
          }))
        : [],
    };
  });
  app.get('/api/metrics/uptime/day', (req, reply) => {
    const q = req.query as Json;
    if (!byId(q.server_id)) return fail(reply, 404, 'not_found');
    const hour = new Date().getUTCHours();
    return {
      date: q.date,
      hours: Array.from({ length: 24 }, (_, h) => (h > hour ? null : h === 3 ? 93.4 : 100)),
      observed_ms: Array.from({ length: 24 }, (_, h) => (h > hour ? 0 : 3_600_000)),
    };
  });
  app.get('/api/metrics/history', (req, reply) => {
    const q = req.query as Json;
    const n = byId(q.server_id);
    const admin = isAdmin(req);
    if (!admin && settings.history_guest_access_mode !== 'by_node') {
      return fail(reply, 403, 'forbidden');
    }
    if (!n || (!admin && !n.guest)) return fail(reply, 404, 'not_found');
    return syntheticHistory(q);
  });

  app.post('/api/auth/login', (req, reply) => {
    const b = req.body as Json;
    if (b.persistence !== 'session' && b.persistence !== 'persistent') {
      return fail(reply, 400, 'invalid_persistence');
    }
    if (b.password !== password) return fail(reply, 401, 'unauthorized', 'invalid credentials');
    const sid = randomBytes(8).toString('hex');
    sessions.set(sid, { refresh: '', csrf: '', sessionOnly: b.persistence === 'session' });
    return grant(reply, sid);
  });
  app.post('/api/auth/refresh', (req, reply) => {
    const sid = sessionFromCookie(req);
    return sid ? grant(reply, sid) : fail(reply, 401, 'unauthorized', 'refresh token invalid');
  });
  app.post('/api/auth/logout', (req, reply) => {
    const sid = sessionFromCookie(req);
    if (sid) sessions.delete(sid);
    return reply
      .header('set-cookie', [
        'refresh=; Path=/api/auth; HttpOnly; Max-Age=0',
        'csrf=; Path=/; Max-Age=0',
      ])
      .code(204)
      .send();
  });
  app.get(
    '/api/auth/sessions/',
    admin((req) => ({
      sessions: [...sessions.entries()].map(([id, s]) => ({
        id,
        expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
        session_only: s.sessionOnly,
        current: id === sidOf(req),
      })),
    })),
  );
  app.delete(
    '/api/auth/sessions/:sid',
    admin((req, reply) => {
      sessions.delete((req.params as Json).sid as string);
      return reply.code(204).send();
    }),
  );

  app.get(
    '/api/admin/nodes/',
    admin(() =>
      [...nodes]
        .sort((a, b) => b.order - a.order)
        .map((n) => ({
          id: n.id,
          name: n.name,
          hostname: str(((n.static?.system ?? {}) as Json).hostname, 'Untitled'),
          is_guest_visible: n.guest,
          traffic_p95_enabled: n.p95,
          ...n.cycle,
          traffic_direction_mode: n.direction,
          secret: n.secret,
          tags: n.tags,
          display_order: n.order,
          group_ids: n.groups,
          version: n.static
            ? { version: String(n.static.version), is_outdated: false, supports_auto_update: true }
            : { version: 'unknown', is_outdated: true, supports_auto_update: false },
        })),
    ),
  );
  app.post(
    '/api/admin/nodes/',
    admin((_req, reply) => {
      nodes.push({
        id: nextNode++,
        name: 'Untitled',
        secret: randomBytes(8).toString('hex'),
        tags: [],
        guest: false,
        groups: [1],
        order: Math.max(0, ...nodes.map((n) => n.order)) + 1,
        cycle: {
          traffic_cycle_mode: 'calendar_month',
          traffic_billing_start_day: 1,
          traffic_billing_anchor_date: '',
          traffic_billing_timezone: '',
        },
        direction: 'default',
        p95: false,
      });
      return reply.code(204).send();
    }),
  );
  app.get(
    '/api/admin/nodes/deploy',
    admin((req) => {
      const host = String(req.headers.host ?? '127.0.0.1').split(':');
      const base = `http://${req.headers.host}`;
      const tail = `${host[0]} ${host[1] ?? ''} `.replace(/ +$/, ' ');
      return {
        scripts: {
          linux: {
            url: `${base}/deploy/linux/install.sh`,
            command_prefix: `curl -fsSL ${base}/deploy/linux/install.sh | sudo bash -s -- ${tail}`,
          },
          macos: {
            url: `${base}/deploy/macos/install.sh`,
            command_prefix: `curl -fsSL ${base}/deploy/macos/install.sh | sudo bash -s -- ${tail}`,
          },
          windows: {
            url: `${base}/deploy/windows/install.ps1`,
            command_prefix: `iwr -UseBasicParsing ${base}/deploy/windows/install.ps1 -OutFile install.ps1; powershell -ExecutionPolicy Bypass -File .\\install.ps1 ${tail}`,
          },
        },
      };
    }),
  );
  app.put(
    '/api/admin/nodes/display-order',
    admin((req, reply) => {
      const ids = (req.body as { ids: number[] }).ids;
      ids.forEach((id, i) => {
        const n = byId(id);
        if (n) n.order = ids.length - i;
      });
      return reply.code(204).send();
    }),
  );
  app.patch(
    '/api/admin/nodes/:id',
    admin((req, reply) => {
      const n = byId((req.params as Json).id);
      if (!n) return fail(reply, 404, 'not_found');
      const b = req.body as Json;
      if (typeof b.name === 'string') n.name = b.name.trim();
      if (Array.isArray(b.tags)) n.tags = b.tags as string[];
      if (typeof b.is_guest_visible === 'boolean') n.guest = b.is_guest_visible;
      if (typeof b.traffic_p95_enabled === 'boolean') n.p95 = b.traffic_p95_enabled;
      if (Array.isArray(b.group_ids)) n.groups = b.group_ids as number[];
      if (typeof b.traffic_direction_mode === 'string') n.direction = b.traffic_direction_mode;
      if (typeof b.traffic_cycle_mode === 'string') {
        n.cycle = {
          ...n.cycle,
          ...Object.fromEntries(
            Object.entries(b).filter(
              ([k]) => k.startsWith('traffic_cycle') || k.startsWith('traffic_billing'),
            ),
          ),
        };
      }
      if (typeof b.secret === 'string') {
        if (b.secret.trim().length < 8) return fail(reply, 400, 'invalid_secret');
        n.secret = b.secret.trim();
      }
      return reply.code(204).send();
    }),
  );
  app.delete(
    '/api/admin/nodes/:id',
    admin((req, reply) => {
      const i = nodes.findIndex((n) => n.id === Number((req.params as Json).id));
      if (i < 0) return fail(reply, 404, 'not_found');
      nodes.splice(i, 1);
      return reply.code(204).send();
    }),
  );
  app.post(
    '/api/admin/nodes/:id/upgrade',
    admin((_req, reply) => reply.code(204).send()),
  );
  app.get(
    '/api/admin/groups/',
    admin(() =>
      groups.map((g) => ({
        ...g,
        server_count: nodes.filter((n) => n.groups.includes(g.id)).length,
      })),
    ),
  );
  app.post(
    '/api/admin/groups/',
    admin((req, reply) => {
      const b = req.body as Json;
      groups.push({ id: nextGroup++, name: String(b.name).trim(), remark: str(b.remark) });
      return reply.code(204).send();
    }),
  );
  app.patch(
    '/api/admin/groups/:id',
    admin((req, reply) => {
      const g = groups.find((x) => x.id === Number((req.params as Json).id));
      if (!g) return fail(reply, 404, 'not_found');
      Object.assign(g, req.body);
      return reply.code(204).send();
    }),
  );
  app.get(
    '/api/admin/system/settings/',
    admin(() => settings),
  );
  app.patch(
    '/api/admin/system/settings/',
    admin((req, reply) => {
      const next = { ...settings, ...(req.body as Json) };
      if (!(num(next.uptime_error_sla) < num(next.uptime_warning_sla))) {
        return fail(reply, 400, 'invalid_fields');
      }
      settings = next;
      return reply.code(204).send();
    }),
  );
  app.get('/api/statistics/traffic/settings', () => traffic);
  app.patch(
    '/api/statistics/traffic/settings',
    admin((req, reply) => {
      traffic = { ...traffic, ...(req.body as Json) };
      return reply.code(204).send();
    }),
  );

  app.post('/api/node/static', (req, reply) => {
    const n = bySecret(req);
    if (!n) return fail(reply, 401, 'unauthorized');
    n.static = req.body as Json;
    if (n.name === 'Untitled') n.name = str(((n.static.system ?? {}) as Json).hostname, n.name);
    return reply.type('text/plain').send('ok');
  });
  app.post('/api/node/metrics', (req, reply) => {
    const n = bySecret(req);
    if (!n) return fail(reply, 401, 'unauthorized');
    const b = req.body as Json;
    n.report = {
      metrics: b.metrics as Json,
      hostname: String(b.hostname),
      received: new Date().toISOString(),
    };
    return { ok: true, update: null };
  });

  const spa = createSpaHandler({ root: join(REPO_ROOT, 'web', 'dist') });
  app.setNotFoundHandler((req, reply) =>
    req.url.startsWith('/api/') ? fail(reply, 404, 'not_found') : spa(req, reply),
  );

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    password,
    output: () => '',
    stop: () => app.close(),
  };
}
