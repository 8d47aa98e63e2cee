import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'themes'>;

const PREVIEW_RE = /^\/theme\/preview\/([^/?#]+)\.png(?:\?.*)?$/;

function plain(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(text);
}

async function answer(
  req: FastifyRequest,
  reply: FastifyReply,
  produce: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await produce();
  } catch (err) {
    req.log.error({ err }, 'theme asset could not be served');
    return plain(reply, 500, 'theme unavailable');
  }
}

async function sendPreview(deps: Deps, req: FastifyRequest, reply: FastifyReply) {
  void reply.header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff');
  const id = PREVIEW_RE.exec(req.url)?.[1];
  const path = id ? await deps.themes.previewPath(id) : null;
  const st = path ? await stat(path).catch(() => null) : null;
  if (!path || !st?.isFile()) return plain(reply, 404, 'Not Found');
  const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  void reply.header('etag', etag);
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  void reply.code(200).type('image/png').header('content-length', String(st.size));
  return reply.send(req.method === 'HEAD' ? undefined : createReadStream(path));
}

/**
 * Public theme assets (reference §9.3, §10.3): the applied theme's canonical CSS (empty for
 * Dash's own look, so the page's stylesheet link always succeeds), its manifest, and previews.
 * Registered as routes so the SPA fallback never answers a /theme path with index.html.
 */
export function registerThemeRoutes(app: FastifyInstance, deps: Deps): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/theme/active.css',
    handler: (req, reply) =>
      answer(req, reply, async () => {
        const { css } = await deps.themes.current();
        void reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
        return reply.code(200).type('text/css; charset=utf-8').send(css);
      }),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/theme/active.json',
    handler: (req, reply) =>
      answer(req, reply, async () => {
        const { manifest } = await deps.themes.current();
        void reply.header('cache-control', 'no-store');
        if (!manifest) return plain(reply, 404, 'Not Found');
        return reply.code(200).type('application/json; charset=utf-8').send(manifest);
      }),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/theme/preview/:file',
    handler: (req, reply) => answer(req, reply, () => sendPreview(deps, req, reply)),
  });
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/theme/*',
    handler: (_req, reply) => plain(reply.header('cache-control', 'no-store'), 404, 'Not Found'),
  });
}
