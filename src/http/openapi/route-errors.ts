import type { ErrorCode } from '../../errors/codes.js';
import type { RouteDef } from '../route-def.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Every error code a route can answer: the ones the conventions of server.ts give it from its
 * definition (auth mode, body, query, path id, storage failures) plus the ones it declares.
 */
export function routeErrorCodes(def: RouteDef): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (def.auth === 'admin' || def.auth === 'node' || def.auth === 'refresh') {
    codes.add('unauthorized');
  }
  const validation = def.validationErrorCode ?? 'invalid_request';
  if (BODY_METHODS.has(def.method)) {
    codes.add(def.jsonErrorCode ?? 'invalid_request');
    codes.add(validation);
    codes.add('body_too_large');
    if (!def.multipart) codes.add('unsupported_media_type');
  }
  if (def.schema?.querystring) codes.add(validation);
  const params = [def.path, ...(def.aliases ?? [])].join('/');
  // Path ids go through pathId(): malformed ids are 400, ids of no row 404.
  if (/\/:id(\/|$)/.test(params)) {
    codes.add('invalid_id');
    codes.add('not_found');
  }
  for (const code of def.errors ?? []) codes.add(code);
  codes.add('internal_error');
  codes.add(def.storeErrorCode ?? 'db_error');
  return [...codes];
}
