import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { PACKAGE_ROOT } from '../../platform/package-root.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileStreamFor } from './file-stream.js';

/** web/dist in the package root, whether running from src/ (tsx) or dist/ (built). */
export function defaultWebRoot(): string {
  return join(PACKAGE_ROOT, 'web', 'dist');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** Vite names everything under assets/ by content hash, so it can be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html above all) is revalidated so a new build shows at once. */
const REVALIDATE = 'no-cache';

const NOT_BUILT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Dash</title>' +
  '<p>The web UI has not been built. Run <code>make run</code> (or ' +
  '<code>npm --prefix web run build</code>) and reload.</p>';

export interface SpaOptions {
  /** Directory holding index.html and assets/. */
  root: string;
}

function etagOf(st: Stats): string {
  return `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
}

async function fileStat(path: string): Promise<Stats | null> {
  try {
    const st = await stat(path);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** URL path → absolute file path inside root, or null when it is malformed or escapes root. */
export function resolveInside(root: string, url: string): string | null {
  const rawPath = url.split(/[?#]/, 1)[0] ?? '/';
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const abs = resolve(root, `.${path.startsWith('/') ? path : `/${path}`}`);
  return abs === root || abs.startsWith(root + sep) ? abs : null;
}

/** Codings the client accepts with a non-zero weight (RFC 9110 §12.5.3), lower-cased. */
export function acceptedCodings(header: string | string[] | undefined): Set<string> {
  const out = new Set<string>();
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of text.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (q === undefined || Number(q) > 0) out.add(coding.trim());
  }
  return out;
}

/** Build-time compressed siblings (web/vite.config.ts writes them), best first. */
const PRECOMPRESSED: ReadonlyArray<{ coding: string; ext: string }> = [
  { coding: 'br', ext: '.br' },
  { coding: 'gzip', ext: '.gz' },
];
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);

interface Variant {
  path: string;
  st: Stats;
  coding?: string;
}

/**
 * The file to send for this request: a precompressed sibling when the client accepts its
 * coding and it is not older than the file itself (a stale one from an earlier build is never
 * served). `compressible` says the answer depends on Accept-Encoding (Vary).
 */
async function pickVariant(
  req: FastifyRequest,
  path: string,
  st: Stats,
): Promise<{ variant: Variant; compressible: boolean }> {
  const compressible = COMPRESSIBLE.has(extname(path).toLowerCase());
  if (!compressible) return { variant: { path, st }, compressible };
  const accepted = acceptedCodings(req.headers['accept-encoding']);
  for (const { coding, ext } of PRECOMPRESSED) {
    if (!accepted.has(coding)) continue;
    const cst = await fileStat(path + ext);
    // 2 s of slack: a copy (release staging, cp) may stamp siblings a moment apart.
    if (cst && cst.mtimeMs + 2000 >= st.mtimeMs) {
      return { variant: { path: path + ext, st: cst, coding }, compressible };
    }
  }
  return { variant: { path, st }, compressible };
}

async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  path: string,
  original: Stats,
  cacheControl: string,
): Promise<FastifyReply> {
  const { variant, compressible } = await pickVariant(req, path, original);
  const st = variant.st;
  const etag = etagOf(st);
  if (compressible) void reply.header('vary', 'Accept-Encoding');
  if (variant.coding) void reply.header('content-encoding', variant.coding);
  void reply.headers({
    'cache-control': cacheControl,
    etag,
    'last-modified': st.mtime.toUTCString(),
    'x-content-type-options': 'nosniff',
  });
  if (req.headers['if-none-match'] === etag) return reply.code(304).send();
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  void reply.type(type).header('content-length', st.size);
  if (req.method === 'HEAD') return reply.code(200).send();
  return reply.code(200).send(fileStreamFor(req.raw, variant.path));
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .type('text/plain; charset=utf-8')
    .header('cache-control', REVALIDATE)
    .send('Not Found');
}

/**
 * Serves the built SPA for every non-API path: existing files as they are (precompressed
 * brotli or gzip when accepted), hashed assets with a long cache, and index.html for
 * client-side routes; source maps are never served. A missing file (a path whose last
 * segment has an extension, or anything under /assets/) is a 404, never the app page.
 */
export function createSpaHandler(opts: SpaOptions) {
  const root = resolve(opts.root);
  const indexPath = join(root, 'index.html');

  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(reply);
    const path = resolveInside(root, req.url);
    if (!path) return notFound(reply);
    // Source maps stay on the server: they would publish the original sources.
    if (extname(path).toLowerCase() === '.map') return notFound(reply);

    const st = path === root ? null : await fileStat(path);
    if (st) {
      const isAsset = path.startsWith(join(root, 'assets') + sep);
      return sendFile(req, reply, path, st, isAsset ? IMMUTABLE : REVALIDATE);
    }

    const urlPath = req.url.split(/[?#]/, 1)[0] ?? '/';
    const lastSegment = urlPath.slice(urlPath.lastIndexOf('/') + 1);
    if (urlPath.startsWith('/assets/') || extname(lastSegment) !== '') return notFound(reply);

    const index = await fileStat(indexPath);
    if (!index) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', REVALIDATE)
        .send(NOT_BUILT_PAGE);
    }
    return sendFile(req, reply, indexPath, index, REVALIDATE);
  };
}
