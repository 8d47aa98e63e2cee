import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onRequestAsyncHookHandler,
} from 'fastify';
import { lazySerializerFactory, lazyValidatorCompiler } from './lazy-compilers.js';
import type { Logger } from '../platform/logger.js';
import { AppError } from '../errors/app-error.js';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.js';
import {
  API_BODY_LIMIT,
  IMPLEMENTED_METHODS,
  type AuthMode,
  type FastLane,
  type RouteDef,
} from './route-def.js';
import { RouteMatcher } from './route-matcher.js';
import { isJsonMediaType, isMultipartMediaType } from './media-type.js';
import { JsonSyntaxError, parseStrictJsonBuffer } from '../protocol/strict-json.js';
import {
  ACCEPTS_GZIP_HEADERS,
  bodyCoding,
  gunzipBody,
  unsupportedCoding,
} from './body-encoding.js';
import fastifyMultipart from '@fastify/multipart';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's definition, for hooks and the error mapping. */
    def?: RouteDef;
  }
}
import { PAGE_SECURITY_HEADERS } from './security-headers.js';
import './request-context.js';
import {
  applyConnectionLimits,
  checkingIntervalMs,
  DEFAULT_CONNECTION_LIMITS,
  type ConnectionLimits,
} from './connection-limits.js';

export type AuthGuards = Partial<Record<AuthMode, onRequestAsyncHookHandler>>;

export interface ServerOptions {
  logger: Logger;
  routes: readonly RouteDef[];
  guards: AuthGuards;
  trustProxy?: string[];
  /** Handles non-API paths (SPA, /deploy, /theme); default answers 404. */
  fallback?: (req: FastifyRequest, reply: FastifyReply) => unknown;
  /** Try the routes' fast lanes (RouteDef.lane) before Fastify (default true). */
  fastLanes?: boolean;
  /** Connection timeouts and per-address cap; defaults to DEFAULT_CONNECTION_LIMITS. */
  connectionLimits?: ConnectionLimits;
}

const IMPLEMENTED = new Set<string>(IMPLEMENTED_METHODS);
const NO_STORE = 'no-store';

export function errorBody(code: ErrorCode, message?: string): string {
  return JSON.stringify({ code, message: message ?? ERROR_CODES[code].message });
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

/** Raw-socket answer for requests no router may see (unknown or lowercase methods). */
function writeRawError(socket: Socket, status: number, code: ErrorCode): void {
  if (!socket.writable) return;
  const body = errorBody(code);
  const reason = status === 501 ? 'Not Implemented' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Cache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (err.code === 'HPE_INVALID_METHOD') {
    writeRawError(socket, 501, 'not_implemented');
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy();
  } else {
    writeRawError(socket, 400, 'invalid_request');
  }
}

/** scheme://authority of an absolute-form request target (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The origin form of an absolute-form target (`http://host/api/x?y` → `/api/x?y`), so routing
 * and every /api convention (no-store above all) apply whatever form the client used.
 */
export function originFormOf(url: string): string {
  if (url.startsWith('/')) return url;
  const m = ABSOLUTE_FORM.exec(url);
  if (!m) return url;
  const rest = url.slice(m[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

function respondError(res: ServerResponse, status: number, code: ErrorCode, message?: string) {
  const body = errorBody(code, message);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': NO_STORE,
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function respondNotImplemented(res: ServerResponse): void {
  respondError(res, 501, 'not_implemented');
}

/**
 * Errors Fastify's router raises before any route or hook runs (a path that is not valid URL
 * encoding, a parameter longer than any id): answered with the conventions and without the
 * path, which Fastify's own body would echo.
 */
function frameworkErrorHandler(err: { code?: string }, _req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return respondError(reply.raw, 404, 'not_found');
  }
  return respondError(
    reply.raw,
    400,
    'invalid_request',
    'the request path is not valid URL encoding',
  );
}

/**
 * Methods outside the six implemented ones are answered before Fastify routes them; CONNECT
 * never reaches a request handler in Node, so it is answered on its own event. Fast lanes come
 * next, then Fastify.
 */
function serverFactoryWith(
  lanes: readonly FastLane[],
  closing: () => boolean,
  limits: ConnectionLimits,
  trustedProxies: readonly string[],
) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => {
    const server = createServer(
      // A request without Host is answered below, with the conventions, not by Node's empty 400.
      { connectionsCheckingInterval: checkingIntervalMs(limits), requireHostHeader: false },
      (req, res) => {
        if (!IMPLEMENTED.has(req.method ?? '')) return respondNotImplemented(res);
        if (req.headers.host === undefined && req.httpVersionMinor === 1) {
          return respondError(
            res,
            400,
            'invalid_request',
            'an HTTP/1.1 request needs a Host header',
          );
        }
        if (req.url !== undefined && !req.url.startsWith('/')) req.url = originFormOf(req.url);
        if (!closing()) for (const lane of lanes) if (lane(req, res)) return;
        handler(req, res);
      },
    );
    server.on('connect', (_req: IncomingMessage, socket: Socket) =>
      writeRawError(socket, 501, 'not_implemented'),
    );
    // Fastify applies its connection timeouts only to servers it creates itself; Dash's own
    // limits replace them (slow or idle clients must not hold connections for good).
    applyConnectionLimits(server, limits, trustedProxies);
    return server;
  };
}

/** Whether the request announces a body (which routes then parse as JSON). */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function routeOf(req: FastifyRequest): RouteDef | undefined {
  return (req.routeOptions.config as { def?: RouteDef } | undefined)?.def;
}

function hasEmptyParam(params: unknown): boolean {
  return Object.values(params as Record<string, unknown>).some((v) => v === '');
}

/** node-postgres' own failures of a pool or connection (no SQLSTATE: the server never answered). */
const PG_CONNECTION_FAILURES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
]);

/**
 * Failures of the storage engine (locked, full, corrupt, closed, unreachable): the service is
 * unavailable. SQLite's errors by name and code; PostgreSQL's server errors carry a severity and
 * a five-character SQLSTATE (pg's DatabaseError), its connection failures only a message.
 */
function isStoreError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, code, message, severity } = err as {
    name?: string;
    code?: unknown;
    message?: unknown;
    severity?: unknown;
  };
  return (
    name === 'SqliteError' ||
    (typeof code === 'string' && code.startsWith('SQLITE_')) ||
    message === 'The database connection is not open' ||
    (typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) ||
    (typeof message === 'string' && PG_CONNECTION_FAILURES.has(message))
  );
}

function mapError(err: unknown, req: FastifyRequest): AppError {
  return toAppError(err, routeOf(req));
}

/** The answer for any failure while serving `route`: the one mapping of errors to codes. */
export function toAppError(err: unknown, route: RouteDef | undefined): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof JsonSyntaxError) {
    return new AppError(
      route?.jsonErrorCode ?? 'invalid_request',
      `invalid JSON body: ${err.message}`,
    );
  }
  const e = err as { code?: string; statusCode?: number; validation?: unknown; message?: string };
  if (isStoreError(err)) {
    return new AppError(route?.storeErrorCode ?? 'db_error', undefined, { cause: err });
  }
  if (e.validation) {
    return new AppError(route?.validationErrorCode ?? 'invalid_request', e.message);
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('body_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('unsupported_media_type');
    default:
      break;
  }
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('invalid_request', e.message);
  }
  return new AppError('internal_error', undefined, { cause: err });
}

/** Fastify instance with every cross-cutting /api convention (spec §4.1, §7) applied once. */
export function createHttpServer(opts: ServerOptions): FastifyInstance {
  let closing = false;
  const app = Fastify({
    loggerInstance: opts.logger,
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    bodyLimit: API_BODY_LIMIT,
    serverFactory: serverFactoryWith(
      opts.fastLanes === false ? [] : opts.routes.flatMap((r) => (r.lane ? [r.lane] : [])),
      () => closing,
      opts.connectionLimits ?? DEFAULT_CONNECTION_LIMITS,
      opts.trustProxy ?? [],
    ),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    trustProxy: opts.trustProxy && opts.trustProxy.length > 0 ? opts.trustProxy : false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() } },
  }) as unknown as FastifyInstance;

  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.setValidatorCompiler(lazyValidatorCompiler());

  const matcher = new RouteMatcher(opts.routes);
  const rejectUnrouted = (req: FastifyRequest, reply: FastifyReply): never => {
    const allowed = isApiPath(req.url) ? matcher.allowedMethods(req.url) : [];
    if (allowed.length > 0) {
      void reply.header('allow', allowed.join(', '));
      throw new AppError('method_not_allowed');
    }
    throw new AppError('not_found');
  };

  // Inject-based tests bypass the server factory; keep the 501 rule for them too.
  // Callback-style hooks: these run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (req, reply, done) => {
    if (!IMPLEMENTED.has(req.method)) return done(new AppError('not_implemented'));
    // The router lets `:id` match an empty segment (`/api/admin/groups/`); no API path has one.
    if (routeOf(req) && hasEmptyParam(req.params)) {
      try {
        rejectUnrouted(req, reply);
      } catch (err) {
        return done(err as Error);
      }
    }
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (isApiPath(req.url)) void reply.header('cache-control', NO_STORE);
    else void reply.headers(PAGE_SECURITY_HEADERS);
    if (routeOf(req)?.gzipBody) void reply.headers(ACCEPTS_GZIP_HEADERS);
    done(null, payload);
  });
  app.addHook('preParsing', async (req, _reply, payload) => {
    const route = routeOf(req);
    // Unrouted paths answer 404/405 whatever their body is.
    if (!route || !hasBody(req.raw)) return payload;
    const coding = bodyCoding(req.headers['content-encoding']);
    if (coding === 'unsupported' || (coding === 'gzip' && !route.gzipBody)) {
      throw unsupportedCoding(route.gzipBody === true);
    }
    if (route.multipart) {
      if (!isMultipartMediaType(req.headers['content-type'])) {
        throw new AppError('unsupported_media_type', 'Content-Type must be multipart/form-data');
      }
      return payload;
    }
    if (!isJsonMediaType(req.headers['content-type'])) throw new AppError('unsupported_media_type');
    return payload;
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    const route = routeOf(req);
    const parse = (buf: Buffer): void => {
      if (buf.length === 0 || !route) {
        done(null, undefined);
        return;
      }
      if (route.rawBody) {
        done(null, buf);
        return;
      }
      try {
        done(null, parseStrictJsonBuffer(buf));
      } catch (err) {
        done(err as Error, undefined);
      }
    };
    const buf = body as Buffer;
    // preParsing let gzip through only to routes that take it; the limit applied so far was
    // to the compressed bytes, the decoder applies it to the decoded ones.
    if (route && buf.length > 0 && bodyCoding(req.headers['content-encoding']) === 'gzip') {
      gunzipBody(buf, route.bodyLimit ?? API_BODY_LIMIT).then(parse, (err: Error) =>
        done(err, undefined),
      );
      return;
    }
    parse(buf);
  });

  app.setErrorHandler((err, req, reply) => {
    const appErr = mapError(err, req);
    if (appErr.status >= 500) {
      // The node a failing node request came from (a late report above all) is in the line.
      const node =
        req.nodeId === undefined ? {} : { nodeId: req.nodeId, receivedAt: req.receivedAt };
      req.log.error({ err, code: appErr.code, ...node }, 'request failed');
    }
    if (appErr.headers) void reply.headers(appErr.headers);
    return reply
      .code(appErr.status)
      .type('application/json; charset=utf-8')
      .send(errorBody(appErr.code, appErr.message));
  });

  app.setNotFoundHandler((req, reply) => {
    if (!isApiPath(req.url) && opts.fallback) return opts.fallback(req, reply);
    return rejectUnrouted(req, reply);
  });

  // The multipart parser streams form parts to the route (req.file()), which sets its limits.
  if (opts.routes.some((r) => r.multipart)) void app.register(fastifyMultipart);

  for (const def of opts.routes) {
    const guard = opts.guards[def.auth];
    if (def.auth !== 'public' && def.auth !== 'refresh' && !guard) {
      throw new Error(
        `no guard registered for auth mode "${def.auth}" (${def.method} ${def.path})`,
      );
    }
    for (const url of [def.path, ...(def.aliases ?? [])]) {
      app.route({
        method: def.method,
        url,
        schema: def.schema,
        bodyLimit: def.bodyLimit ?? API_BODY_LIMIT,
        config: { def },
        // Credentials are checked before the body is read: a caller without them learns nothing.
        ...(guard ? { onRequest: guard } : {}),
        handler: def.handler as (req: FastifyRequest, reply: FastifyReply) => unknown,
      });
    }
  }
  return app;
}
