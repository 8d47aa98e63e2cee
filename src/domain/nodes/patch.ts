import { AppError } from '../../errors/app-error.js';
import { cleanText } from '../common/text.js';
import { cycleFromPatch, type CycleInput, type CycleSettings } from './cycle.js';
import { tagsFromPatch } from './tags.js';

export const NODE_NAME_MAX = 64;
export const SECRET_MIN = 8;
export const SECRET_MAX = 128;
export const DIRECTION_MODES = ['default', 'out', 'both', 'max'] as const;

/** A node patch as received (spec §2.3); absent fields are undefined. */
export interface NodePatchInput extends CycleInput {
  name?: string | undefined;
  isGuestVisible?: boolean | undefined;
  trafficP95Enabled?: boolean | undefined;
  directionMode?: string | undefined;
  displayOrder?: number | undefined;
  /** Raw value: anything but an array of strings is invalid_tags. */
  tags?: unknown;
  secret?: string | undefined;
  groupIds?: number[] | undefined;
}

/** A validated patch; every field is already in its stored form. */
export interface NodePatch {
  name?: string;
  isGuestVisible?: boolean;
  trafficP95Enabled?: boolean;
  cycle?: CycleSettings;
  directionMode?: string;
  displayOrder?: number;
  tags?: string[];
  secret?: string;
  groupIds?: number[];
}

export function nodeName(raw: string): string {
  const name = cleanText(raw, 1, NODE_NAME_MAX);
  if (name === undefined) throw new AppError('invalid_name');
  return name;
}

/** 8-128 characters after trimming; control characters could never travel in a header. */
export function nodeSecret(raw: string): string {
  const secret = cleanText(raw, SECRET_MIN, SECRET_MAX);
  if (secret === undefined) throw new AppError('invalid_secret');
  return secret;
}

function directionMode(raw: string): string {
  if (!(DIRECTION_MODES as readonly string[]).includes(raw)) {
    throw new AppError('invalid_traffic_direction_mode');
  }
  return raw;
}

function displayOrder(raw: number): number {
  if (!Number.isSafeInteger(raw) || raw <= 0) throw new AppError('invalid_display_order');
  return raw;
}

function groupIds(raw: number[]): number[] {
  if (!raw.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw new AppError('invalid_group_ids', 'group_ids must be positive integers');
  }
  return [...new Set(raw)];
}

/**
 * Validates every field of a node patch before anything is stored, so a rejected patch changes
 * nothing. At least one recognised field is required (400 no_fields).
 */
export function parseNodePatch(input: NodePatchInput, appZone: string): NodePatch {
  const patch: NodePatch = {};
  if (input.name !== undefined) patch.name = nodeName(input.name);
  if (input.isGuestVisible !== undefined) patch.isGuestVisible = input.isGuestVisible;
  if (input.trafficP95Enabled !== undefined) patch.trafficP95Enabled = input.trafficP95Enabled;
  const cycle = cycleFromPatch(input, appZone);
  if (cycle) patch.cycle = cycle;
  if (input.directionMode !== undefined) patch.directionMode = directionMode(input.directionMode);
  if (input.displayOrder !== undefined) patch.displayOrder = displayOrder(input.displayOrder);
  if (input.tags !== undefined) patch.tags = tagsFromPatch(input.tags);
  if (input.secret !== undefined) patch.secret = nodeSecret(input.secret);
  if (input.groupIds !== undefined) patch.groupIds = groupIds(input.groupIds);
  if (Object.keys(patch).length === 0) throw new AppError('no_fields');
  return patch;
}

export const MAX_BULK_IDS = 10000;

/** Bulk id lists (traffic-p95, display order): 1-10000 unique positive integers. */
export function bulkIds(ids: readonly number[] | undefined): number[] {
  if (
    ids === undefined ||
    ids.length === 0 ||
    ids.length > MAX_BULK_IDS ||
    !ids.every((id) => Number.isSafeInteger(id) && id > 0) ||
    new Set(ids).size !== ids.length
  ) {
    throw new AppError('invalid_ids');
  }
  return [...ids];
}
