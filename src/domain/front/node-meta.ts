import { parseStaticInfo, type StaticInfo } from '../nodes/static-info.js';
import type { NodeFrontRow } from '../../store/ports.js';

/** What the front view needs from a node's record and static report. */
export interface NodeMeta {
  id: number;
  name: string;
  tags: string[];
  displayOrder: number;
  guestVisible: boolean;
  os: string;
  platform: string;
  platformVersion: string;
  kernelVersion: string;
  arch: string;
  static: StaticInfo;
}

const MAX_TAGS = 32;
const MAX_TAG_CHARS = 64;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Stored tags as the front shows them (spec §2.3): invalid or excess items are dropped with a
 * warning; unreadable JSON becomes no tags, and the node stays in the projection.
 */
export function cleanStoredTags(raw: string, warn: (msg: string) => void): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    warn('stored tags are not valid JSON; showing none');
    return [];
  }
  if (!Array.isArray(parsed)) {
    warn('stored tags are not a list; showing none');
    return [];
  }
  const out: string[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const item of parsed) {
    const tag = typeof item === 'string' ? item.trim() : '';
    const valid = tag !== '' && [...tag].length <= MAX_TAG_CHARS && !CONTROL.test(tag);
    if (!valid || seen.has(tag) || out.length >= MAX_TAGS) {
      dropped++;
      continue;
    }
    seen.add(tag);
    out.push(tag);
  }
  if (dropped > 0) warn(`dropped ${dropped} invalid, duplicate or excess stored tags`);
  return out;
}

export function nodeMetaFromRow(row: NodeFrontRow, warn: (msg: string) => void): NodeMeta {
  return {
    id: row.id,
    name: row.name.trim(),
    tags: cleanStoredTags(row.tags, warn),
    displayOrder: row.displayOrder,
    guestVisible: row.guestVisible,
    os: row.os,
    platform: row.platform,
    platformVersion: row.platformVersion,
    kernelVersion: row.kernelVersion,
    arch: row.arch,
    static: parseStaticInfo(row.staticJson),
  };
}
