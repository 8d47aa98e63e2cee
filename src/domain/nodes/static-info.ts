import type { StaticReport } from '../../protocol/static-report.js';

/**
 * What Dash keeps from a node's static report beyond the plain columns (os, platform, versions,
 * arch, agent version, interval), stored as JSON in nodes.static_json. Unknown values are
 * absent; a later report only overwrites what it knows (reference §2.2).
 */
export interface StaticInfo {
  cpu: {
    modelName?: string;
    vendorId?: string;
    sockets?: number;
    coresPhysical?: number;
    coresLogical?: number;
    frequencyMhz?: number;
  };
  memory: { total?: number; swapTotal?: number };
  raid: { supported: boolean; available: boolean };
  /** Representative disk: the logical disk with the largest capacity. */
  root?: { path: string; fsType?: string; total?: number };
  /** Node clock time of the last static report (epoch ms). */
  reportedAt?: number;
}

export function emptyStaticInfo(): StaticInfo {
  return { cpu: {}, memory: {}, raid: { supported: false, available: false } };
}

/** Reads stored static JSON; anything unreadable counts as "nothing known yet". */
export function parseStaticInfo(json: string | null | undefined): StaticInfo {
  if (!json) return emptyStaticInfo();
  try {
    const v = JSON.parse(json) as Partial<StaticInfo>;
    return {
      cpu: v.cpu ?? {},
      memory: v.memory ?? {},
      raid: v.raid ?? { supported: false, available: false },
      ...(v.root ? { root: v.root } : {}),
      ...(v.reportedAt !== undefined ? { reportedAt: v.reportedAt } : {}),
    };
  } catch {
    return emptyStaticInfo();
  }
}

/** Applies a validated static report onto what is stored (reference §2.2 rules). */
export function mergeStaticInfo(prev: StaticInfo, s: StaticReport, reportedAt: number): StaticInfo {
  const info = s.cpu?.info ?? {};
  const cpu = { ...prev.cpu };
  const model = info.model_name?.trim();
  if (model) cpu.modelName = model;
  const vendor = info.vendor_id?.trim();
  if (vendor) cpu.vendorId = vendor;
  if (info.sockets) cpu.sockets = info.sockets;
  if (info.cores_physical) cpu.coresPhysical = info.cores_physical;
  if (info.cores_logical) cpu.coresLogical = info.cores_logical;
  if (info.frequency_mhz) cpu.frequencyMhz = info.frequency_mhz;

  const memory = { ...prev.memory };
  if (s.memory?.total) memory.total = s.memory.total;
  // 0 is meaningful here (swap disabled); only an absent value keeps the stored one.
  if (s.memory?.swap_total !== undefined && s.memory.swap_total !== null) {
    memory.swapTotal = s.memory.swap_total;
  }

  const next: StaticInfo = {
    cpu,
    memory,
    raid: { supported: s.raid?.supported ?? false, available: s.raid?.available ?? false },
    reportedAt,
  };
  const root = representativeDisk(s) ?? prev.root;
  if (root) next.root = root;
  return next;
}

function representativeDisk(s: StaticReport): StaticInfo['root'] | undefined {
  let best: NonNullable<NonNullable<StaticReport['disk']>['logical']>[number] | undefined;
  for (const d of s.disk?.logical ?? []) {
    if (!best || (d.total ?? 0) > (best.total ?? 0)) best = d;
  }
  if (!best) return undefined;
  const path = best.mountpoint?.trim() || best.ref?.trim();
  if (!path) return undefined;
  const fsType = best.mountpoints?.[path]?.fs_type?.trim() || best.fs_type?.trim();
  return {
    path,
    ...(fsType ? { fsType } : {}),
    ...(best.total && best.total > 0 ? { total: best.total } : {}),
  };
}
