import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.js';

export { Int64 } from '../../protocol/api/scalars.js';

export const IdParams = Type.Object({ id: Type.String() });

const INT64_MAX = 9223372036854775807n;

/**
 * A path id: a positive signed 64-bit integer, else 400 invalid_id. Ids beyond the exactly
 * representable range cannot belong to a stored row, so they are 404 not_found.
 */
export function pathId(raw: string): number {
  if (!/^\d{1,19}$/.test(raw)) throw new AppError('invalid_id');
  const big = BigInt(raw);
  if (big <= 0n || big > INT64_MAX) throw new AppError('invalid_id');
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new AppError('not_found');
  return Number(big);
}
