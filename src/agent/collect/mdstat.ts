import { join } from 'node:path';
import type { RaidArray, RaidMetrics, StaticRaidArray } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { readText } from './read.js';

export interface MdArray {
  array: RaidArray;
  level: string;
  /** Number of member slots the array is built for ([n/m] → n). */
  raidDisks: number;
}

const SYNC_RE = /\b(resync|recovery|check|reshape|repair)\s*=\s*(\d+(?:\.\d+)?%|DELAYED|PENDING)/;

function parseMember(token: string): { name: string; role?: number; flags: string } | undefined {
  const m = /^([^[\s]+)\[(\d+)\]((?:\([A-Z]\))*)$/.exec(token);
  if (!m) return undefined;
  return { name: m[1]!, role: Number(m[2]), flags: m[3] ?? '' };
}

/**
 * Parses /proc/mdstat. Each array starts with "mdN : <state> [(read-only)] <level> members…";
 * the indented lines after it carry "[n/m] [UU_]" and, while a sync runs, its kind and progress.
 * Members flagged (F) are failed, (S) spares; an in-array member whose slot shows "_" is down.
 */
export function parseMdstat(text: string): MdArray[] {
  const out: MdArray[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^(md\w*)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!head) continue;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j]!); j++) body.push(lines[j]!);
    const tokens = head[2]!.trim().split(/\s+/);
    const state = tokens.shift() ?? 'unknown';
    const statusWords = [state];
    while (tokens[0]?.startsWith('(')) statusWords.push(tokens.shift()!);
    const level = tokens[0] && !parseMember(tokens[0]) ? tokens.shift()! : 'unknown';
    const members = tokens.map(parseMember).filter((m) => m !== undefined);

    const detail = body.join(' ');
    const slots = /\[(\d+)\/(\d+)\]\s*\[([U_]+)\]/.exec(detail);
    const raidDisks = slots ? Number(slots[1]) : members.filter((m) => !m.flags).length;
    const upMap = slots?.[3];
    const memberStates = members.map((m) => {
      let memberState = 'up';
      if (m.flags.includes('F')) memberState = 'down';
      else if (m.flags.includes('S')) memberState = 'spare';
      else if (upMap && m.role !== undefined && upMap[m.role] === '_') memberState = 'down';
      return { name: m.name, state: memberState };
    });
    const failed = members.filter((m) => m.flags.includes('F')).length;
    const active = slots ? Number(slots[2]) : memberStates.filter((m) => m.state === 'up').length;
    const working = memberStates.filter((m) => m.state !== 'down').length;
    const sync = SYNC_RE.exec(detail);

    let health = 'healthy';
    if (state === 'inactive') health = 'inactive';
    else if ((slots && active < raidDisks) || failed > 0) health = 'degraded';

    const array: RaidArray = {
      name: head[1]!,
      status: statusWords.join(' '),
      health,
      active,
      working,
      failed,
      members: memberStates,
    };
    if (sync) {
      const progress = sync[2]!;
      array.sync_status = progress.endsWith('%')
        ? sync[1]!
        : `${sync[1]!} ${progress.toLowerCase()}`;
      if (progress.endsWith('%')) array.sync_progress = progress;
    }
    out.push({ array, level, raidDisks });
  }
  return out;
}

/** md arrays, or undefined when the md driver is not loaded (no /proc/mdstat). */
export function readMdstat(paths: HostPaths): MdArray[] | undefined {
  const text = readText(join(paths.proc, 'mdstat'));
  return text === undefined ? undefined : parseMdstat(text);
}

export function raidMetrics(arrays: readonly MdArray[] | undefined): RaidMetrics {
  return {
    supported: true,
    available: arrays !== undefined,
    arrays: (arrays ?? []).map((a) => a.array),
  };
}

export function staticRaid(arrays: readonly MdArray[] | undefined): {
  supported: boolean;
  available: boolean;
  arrays: StaticRaidArray[];
} {
  return {
    supported: true,
    available: arrays !== undefined,
    arrays: (arrays ?? []).map((a) => ({
      name: a.array.name,
      level: a.level,
      devices: a.raidDisks,
      members: a.array.members.map((m) => ({ name: m.name })),
    })),
  };
}
