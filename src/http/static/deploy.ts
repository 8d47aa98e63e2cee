import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { AgentPlatform } from '../../domain/nodes/platform.js';
import { renderInstallScript } from '../../deploy/install-scripts.js';
import { installAddress, requestBaseUrl } from '../../domain/nodes/install-address.js';
import { fileStreamFor } from './file-stream.js';
import { clientAddressKey } from '../../domain/auth/client-network.js';
import { nodeAuthThrottle } from '../plugins/node-guard.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<
  AppDeps,
  'agentAssets' | 'config' | 'downloadGrants' | 'nodeAuthLimiter' | 'nodeSecrets' | 'versions'
>;

const SCRIPTS: ReadonlyArray<[string, AgentPlatform]> = [
  ['/deploy/linux/install.sh', 'linux'],
  ['/deploy/macos/install.sh', 'macos'],
  ['/deploy/windows/install.ps1', 'windows'],
];

function plain(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(text);
}

/** The asset path after /deploy/, decoded; null when the URL cannot name a file. */
function assetPathOf(rawUrl: string): string | null {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  try {
    return path.slice('/deploy/'.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function authorised(deps: Deps, req: FastifyRequest, assetPath: string): boolean {
  const secret = single(req.headers['x-node-secret']);
  if (secret !== undefined && secret !== '') {
    if (deps.nodeSecrets.lookup(secret) !== undefined) return true;
    deps.nodeAuthLimiter.hit(clientAddressKey(req.ip));
  }
  const token = single((req.query as Record<string, unknown>).upgrade_token);
  return token !== undefined && token !== '' && deps.downloadGrants.allows(token, assetPath);
}

/** True when the client lists gzip in Accept-Encoding with a non-zero weight. */
function acceptsGzip(req: FastifyRequest): boolean {
  const header = single(req.headers['accept-encoding']) ?? '';
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q) > 0);
  });
}

async function serveAsset(deps: Deps, req: FastifyRequest, reply: FastifyReply) {
  void reply
    .header('cache-control', 'private, no-store')
    .header('vary', 'X-Node-Secret, Accept-Encoding');
  const throttled = deps.nodeAuthLimiter.active && nodeAuthThrottle(deps.nodeAuthLimiter, req.ip);
  if (throttled) {
    void reply.headers(throttled.headers ?? {});
    return plain(reply, 429, 'Too Many Requests');
  }
  const assetPath = assetPathOf(req.url);
  if (assetPath === null || !authorised(deps, req, assetPath)) {
    return plain(reply, 401, 'Unauthorized');
  }
  let file;
  let gzipped = null;
  try {
    file = await deps.agentAssets.locate(assetPath);
    // A standalone agent is ~100 MB; the build's gzip copy halves the download for clients that
    // accept it (curl --compressed, wget, Go's http client). Others get the file as it is.
    if (file && acceptsGzip(req)) gzipped = await deps.agentAssets.locate(`${assetPath}.gz`);
  } catch (err) {
    req.log.error({ err }, 'deploy asset lookup failed');
    return plain(reply, 500, 'Internal Server Error');
  }
  if (!file) return plain(reply, 404, 'Not Found');
  if (gzipped && gzipped.mtimeMs >= file.mtimeMs) {
    file = gzipped;
    void reply.header('content-encoding', 'gzip');
  }
  void reply.code(200).type('application/octet-stream').header('content-length', String(file.size));
  if (req.method === 'HEAD') return reply.send();
  return reply.send(fileStreamFor(req.raw, file.path));
}

/**
 * /deploy (reference §10.3): install scripts rendered for the public URL, open to anyone; agent
 * builds and other files of $DASH_HOME/deploy, only for a live node's X-Node-Secret or an
 * upgrade_token granted for exactly that file.
 */
export function registerDeployRoutes(app: FastifyInstance, deps: Deps): void {
  for (const [url, platform] of SCRIPTS) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      handler: (req, reply) => {
        void reply.header('cache-control', 'no-store');
        try {
          // Without a configured public URL the script speaks the scheme and host it was fetched
          // from, like the install command the admin page showed (routes/admin/nodes/deploy.ts).
          const base = installAddress({
            publicUrl: deps.config.publicUrl,
            configured: deps.config.publicUrlConfigured ?? true,
            requestBase: requestBaseUrl(req.protocol, req.host),
          }).baseUrl;
          const script = renderInstallScript(platform, base, deps.versions.node);
          return reply.code(200).type(script.contentType).send(script.body);
        } catch (err) {
          req.log.error({ err }, 'install script could not be rendered');
          return plain(reply, 500, 'install script unavailable');
        }
      },
    });
  }
  app.route({
    method: ['GET', 'HEAD'],
    url: '/deploy/*',
    handler: (req, reply) => serveAsset(deps, req, reply),
  });
}
