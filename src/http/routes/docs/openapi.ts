import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { defineRoute, type RouteDef } from '../../route-def.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../../openapi/document.js';
import { renderApiPage } from '../../openapi/html-page.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'versions'>;

/**
 * GET /api/openapi.json and GET /api/docs — the API description generated from the route
 * table (which lists these two routes as well), built once on first request.
 */
export function apiDescriptionRoutes(deps: Deps, table: () => readonly RouteDef[]): RouteDef[] {
  let doc: OpenApiDocument | undefined;
  let page: string | undefined;
  const document = () => (doc ??= buildOpenApiDocument(table(), deps.versions.dash));
  return [
    defineRoute({
      method: 'GET',
      path: '/api/openapi.json',
      auth: 'public',
      summary: 'This API description (OpenAPI 3.1)',
      schema: {
        response: {
          200: Type.Object({ openapi: Type.Literal('3.1.0'), paths: Type.Object({}) }),
        },
      },
      // Sent as is: the response schema above describes only the top of the document.
      handler: (_req, reply) =>
        reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(document()),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/docs',
      auth: 'public',
      summary: 'The API description as a readable HTML page',
      handler: (_req, reply) =>
        reply.type('text/html; charset=utf-8').send((page ??= renderApiPage(document()))),
    }),
  ];
}
