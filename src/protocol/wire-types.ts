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

/** Optional text and number fields, the most common members of agent payloads. */
export const str = () => opt(Type.String());
export const num = () => opt(Type.Number());

/**
 * Disk shapes both payloads carry (reference §1.3, §2.1): a mountpoint of a logical disk, and
 * the members a logical disk has in both (static adds fs_type).
 */
export const MountpointSchema = Type.Object({
  fs_type: str(),
  inodes_total: opt(int64()),
  inodes_used: opt(int64()),
  inodes_free: opt(int64()),
  inodes_used_ratio: num(),
});

export const diskLogicalMembers = {
  kind: str(),
  name: str(),
  device_path: str(),
  ref: str(),
  total: opt(int64()),
  used: opt(int64()),
  free: opt(int64()),
  used_ratio: num(),
  health: str(),
  level: str(),
  mountpoint: str(),
  mountpoints: nullable(Type.Record(Type.String(), MountpointSchema)),
  devices: nullable(Type.Array(Type.String())),
};
