import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from '../errors/codes.js';

export const IMPLEMENTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof IMPLEMENTED_METHODS)[number];

/**
 * Who may call a route:
 * - public: anyone, no credentials read;
 * - optional: a valid Bearer token makes the caller an admin, anything else is anonymous;
 * - admin: a valid Bearer access token is required (401 otherwise);
 * - node: a valid X-Node-Secret is required (401 otherwise);
 * - refresh: the refresh cookie plus X-CSRF-Token prove the caller (checked by the handler).
 */
export type AuthMode = 'public' | 'optional' | 'admin' | 'node' | 'refresh';

export interface RouteSchemas {
  body?: TSchema;
  querystring?: TSchema;
  params?: TSchema;
  response?: Record<number, TSchema>;
}

type StaticOr<T, F> = T extends TSchema ? Static<T> : F;

export type RouteRequest<S extends RouteSchemas> = FastifyRequest<{
  Body: StaticOr<S['body'], unknown>;
  Querystring: StaticOr<S['querystring'], Record<string, string | undefined>>;
  Params: StaticOr<S['params'], Record<string, string>>;
}>;

/**
 * What a handler may answer: the declared response schema's type (one wire model per payload,
 * so a change to the schema breaks the build of the route as well as the web), or the reply
 * itself for answers it sends by hand (204, streams).
 */
export type RouteAnswer<S extends RouteSchemas> =
  S['response'] extends Record<number, TSchema>
    ? StaticOf<S['response']> | FastifyReply | undefined
    : unknown;

type StaticOf<R> = { [K in keyof R]: R[K] extends TSchema ? Static<R[K]> : never }[keyof R];

export interface RouteDef<S extends RouteSchemas = RouteSchemas> {
  method: HttpMethod;
  /** Canonical path in Fastify syntax, e.g. `/api/admin/nodes/:id`. */
  path: string;
  /** Extra exact paths answering the same way (spec §4.1.4); no redirects. */
  aliases?: readonly string[];
  auth: AuthMode;
  /** Bytes; defaults to the 24 MiB API limit. */
  bodyLimit?: number;
  /** Code for a body that is not strict JSON (login answers invalid_json). */
  jsonErrorCode?: ErrorCode;
  /** Code for a body or query that fails its schema. */
  validationErrorCode?: ErrorCode;
  /** Code for a storage failure (database locked, disk full...); default db_error (503). */
  storeErrorCode?: ErrorCode;
  /** Accept a multipart body instead of JSON (theme upload). */
  multipart?: boolean;
  /**
   * Hand the handler the body bytes (a Buffer, or undefined when empty) after the media-type
   * and size checks, unparsed: the route decodes them itself (node metrics are decoded off
   * the HTTP thread). No body schema applies.
   */
  rawBody?: boolean;
  /**
   * Also take bodies with `Content-Encoding: gzip` (decoded before the body limit and parsing
   * apply), and say so with `Accept-Encoding: gzip` in every answer (http/body-encoding.ts).
   */
  gzipBody?: boolean;
  schema?: S;
  /** One line for the API description (GET /api/openapi.json); defaults to method and path. */
  summary?: string;
  /**
   * Error codes this route answers beyond the ones its definition implies (auth, body, query,
   * path id, storage), so the API description lists them.
   */
  errors?: readonly ErrorCode[];
  handler: (req: RouteRequest<S>, reply: FastifyReply) => RouteAnswer<S> | Promise<RouteAnswer<S>>;
  /**
   * A fast lane for the route's common shape (a hot request), tried before Fastify; it lives
   * beside the route file, so the route names everything that serves its endpoint.
   */
  lane?: FastLane;
}

/**
 * A handler for one hot request shape that answers on the bare node:http objects, skipping
 * Fastify's routing, hooks and reply pipeline. It returns false, without touching the request,
 * for anything outside its shape (errors, unusual headers), so the router answers those with
 * the same conventions as always; what it answers itself must be byte-for-byte what the route
 * would have answered (tests compare the two). Lanes are skipped once the server is closing.
 */
export type FastLane = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Declares a route with request types inferred from its schemas. */
export function defineRoute<S extends RouteSchemas>(def: RouteDef<S>): RouteDef {
  return def;
}

export const API_BODY_LIMIT = 24 * 1024 * 1024;
export const NODE_BODY_LIMIT = 1024 * 1024;
