import type { MultipartFile } from '@fastify/multipart';
import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { AppError } from '../../../../../errors/app-error.js';
import { THEME_LIMITS } from '../../../../../domain/themes/limits.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'themes'>;

/** Multipart limits: one file part of at most the zip limit, a few small fields at most. */
const FORM_LIMITS = {
  fileSize: THEME_LIMITS.zipBytes,
  files: 1,
  fields: 4,
  fieldSize: 1024,
  parts: 5,
  headerPairs: 20,
};

function formError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('body_too_large', 'the theme zip is larger than 20 MiB');
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('invalid_theme_package', 'send exactly one file part named "file"');
    default:
      return new AppError('invalid_request', 'malformed multipart body', { cause: err });
  }
}

/**
 * POST /api/admin/system/themes/upload — a theme zip in the multipart field `file` (reference
 * §9.3); 201 with the stored theme's list item. The whole package is checked in memory before
 * anything is written.
 */
export function themesUploadRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/system/themes/upload',
    auth: 'admin',
    errors: ['invalid_theme_package', 'theme_storage_unavailable'],
    multipart: true,
    bodyLimit: THEME_LIMITS.requestBytes,
    storeErrorCode: 'theme_storage_unavailable',
    handler: async (req, reply) => {
      // The multipart parser reads the raw stream, past Fastify's body limit. With a declared
      // length Node's parser never delivers more, so requiring one bounds the whole request.
      const length = req.headers['content-length'];
      if (length === undefined && req.headers['transfer-encoding'] !== undefined) {
        throw new AppError('invalid_request', 'the upload needs a Content-Length');
      }
      if (Number(length ?? 0) > THEME_LIMITS.requestBytes) throw new AppError('body_too_large');
      if (!req.isMultipart()) {
        throw new AppError('invalid_theme_package', 'upload the zip as multipart field "file"');
      }
      let zip: Buffer | undefined;
      try {
        const part: MultipartFile | undefined = await req.file({ limits: FORM_LIMITS });
        if (part?.fieldname === 'file') zip = await part.toBuffer();
        else if (part) part.file.resume();
      } catch (err) {
        throw formError(err);
      }
      if (!zip) throw new AppError('invalid_theme_package', 'the form has no file part "file"');
      const created = await deps.themes.upload(zip);
      return reply.code(201).send(created);
    },
  });
}
