import { Type, type TLiteral, type TNull, type TSchema, type TUnion } from 'typebox';

type LiteralsOf<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * One of a fixed set of strings. An answer outside the set fails serialization (500) rather
 * than reaching a client whose types promise the set.
 */
export function OneOf<const T extends readonly string[]>(values: T): TUnion<LiteralsOf<T>> {
  return Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<LiteralsOf<T>>;
}

export function Nullable<T extends TSchema>(type: T): TUnion<[T, TNull]> {
  return Type.Union([type, Type.Null()]);
}

/** A JSON integer in the signed 64-bit range (the strict reader keeps the bounds exact). */
export const Int64 = Type.Integer({ minimum: -(2 ** 63), maximum: 2 ** 63 });
