import { Type, type Static, type TSchema } from 'typebox';

/**
 * JSON type builders for the node protocol. Ranges mirror the Go types the agent and the
 * reference server use, so an integer outside its Go type is a decoding failure (400), while
 * value rules (negatives, ratios, lengths) are checked afterwards (422). The strict JSON reader
 * nudges out-of-range 64-bit literals past 2^63 / 2^64, which makes these bounds exact.
 */
export const int64 = () => Type.Integer({ minimum: -(2 ** 63), maximum: 2 ** 63 });
export const uint64 = () => Type.Integer({ minimum: 0, maximum: 2 ** 64 });
export const int32 = () => Type.Integer({ minimum: -(2 ** 31), maximum: 2 ** 31 - 1 });
export const int16 = () => Type.Integer({ minimum: -(2 ** 15), maximum: 2 ** 15 - 1 });

/**
 * A field Go decodes into a plain value: missing means zero/empty, so it is optional on the wire.
 */
export const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

/**
 * A Go slice or pointer: missing and null both decode to "absent". Written as a type list
 * (`type: ["array", "null"]`) rather than anyOf, which validates several times faster on the
 * ingest path.
 */
export const nullable = <T extends TSchema>(schema: T) => {
  const json = schema as unknown as { type: string };
  return Type.Optional(Type.Unsafe<Static<T> | null>({ ...schema, type: [json.type, 'null'] }));
};
