import { Ajv } from 'ajv';
import { AppError } from '../errors/app-error.js';
import { JsonSyntaxError, parseStrictJsonBuffer } from './strict-json.js';
import { NodeReportSchema, type NodeReport } from './node-report.js';

/**
 * Reads a metrics report body: strict JSON (duplicate keys, invalid UTF-8, 64-bit ranges),
 * then the wire schema (JSON types and Go integer ranges). Any failure is 400 invalid_request,
 * as for every other JSON body. Used where the body is read off the HTTP thread.
 */
export function nodeReportDecoder(): (body: Uint8Array | undefined) => NodeReport {
  const ajv = new Ajv({ coerceTypes: false, useDefaults: true, allErrors: false, strict: false });
  const validate = ajv.compile<NodeReport>(NodeReportSchema);
  return (body) => {
    if (!body || body.length === 0)
      throw new AppError('invalid_request', 'invalid JSON body: empty body');
    let value: unknown;
    try {
      value = parseStrictJsonBuffer(body);
    } catch (err) {
      if (err instanceof JsonSyntaxError) {
        throw new AppError('invalid_request', `invalid JSON body: ${err.message}`);
      }
      throw err;
    }
    if (!validate(value)) {
      const e = validate.errors?.[0];
      throw new AppError(
        'invalid_request',
        `body${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`,
      );
    }
    return value;
  };
}
