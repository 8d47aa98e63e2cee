import { AppError } from '../../errors/app-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { cleanText } from '../common/text.js';

export const GROUP_NAME_MAX = 64;
export const GROUP_REMARK_MAX = 255;

/** Name of the group every new node joins; ensured at start. */
export const DEFAULT_GROUP_NAME = 'default';
/** The first group ever created is the default one and cannot be deleted. */
export const DEFAULT_GROUP_ID = 1;

export function groupName(raw: string | undefined, code: ErrorCode = 'invalid_name'): string {
  const name = cleanText(raw ?? '', 1, GROUP_NAME_MAX);
  if (name === undefined) {
    throw new AppError(code, 'name must be 1-64 characters without control characters');
  }
  return name;
}

export function groupRemark(raw: string | undefined, code: ErrorCode = 'invalid_remark'): string {
  const remark = cleanText(raw ?? '', 0, GROUP_REMARK_MAX);
  if (remark === undefined) {
    throw new AppError(code, 'remark must be at most 255 characters without control characters');
  }
  return remark;
}
