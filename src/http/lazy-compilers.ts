import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's request validators (Ajv) and response serialisers
 * (fast-json-stringify) when the app becomes ready: about 0.4 s of CPU on the HTTP thread
 * before the first request can be served, most of it for routes a given process never sees.
 * These compilers build each one on its first call instead, with the same options, so start-up
 * pays only for what is used (docs/ingest-performance.md, "Startup").
 */

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

type Validator = ((data: unknown, ctx?: unknown) => boolean) & {
  errors?: ValidateFunction['errors'];
  readonly schemaEnv: true;
};

/** Ajv validators for bodies (no coercion) and the other parts (query strings coerce), compiled lazily. */
export function lazyValidatorCompiler(): (route: {
  schema: object;
  httpPart?: string;
}) => Validator {
  let body: Ajv | undefined;
  let other: Ajv | undefined;
  return ({ schema, httpPart }) => {
    let fn: ValidateFunction | undefined;
    const validate = ((data: unknown, ctx?: unknown) => {
      fn ??=
        httpPart === 'body'
          ? (body ??= makeAjv(false)).compile(schema)
          : (other ??= makeAjv(true)).compile(schema);
      const ok = ctx === undefined ? fn(data) : fn(data, ctx as never);
      validate.errors = fn.errors;
      return ok;
    }) as Validator;
    // Fastify passes Ajv's data context (parent object and property) only to functions with
    // a schemaEnv, so that coercion of a whole request part can replace it.
    Object.defineProperty(validate, 'schemaEnv', { value: true });
    return validate;
  };
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's own serialiser factory (fast-json-stringify), each serialiser built on first use. */
export function lazySerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, serializerOpts) => {
    const compile = build(externalSchemas, serializerOpts);
    return (route) => {
      let fn: ((data: unknown) => string) | undefined;
      return (data: unknown) => (fn ??= compile(route))(data);
    };
  };
}
