import type { AdjustmentDirection, TrafficAdjustmentRow } from '../ports.js';

/** A calibration record as both engines store it (snake_case columns) and its port shape. */
export type AdjustmentDb = {
  id: number;
  node_id: number;
  iface: string;
  cycle_start: number;
  cycle_end: number;
  direction: string;
  billed_bytes: number;
  raw_bytes: number;
  note: string;
  created_at: number;
  revoked_at: number | null;
  superseded_by: number | null;
};

export const toAdjustmentRow = (r: AdjustmentDb): TrafficAdjustmentRow => ({
  id: r.id,
  nodeId: r.node_id,
  iface: r.iface,
  cycleStart: r.cycle_start,
  cycleEnd: r.cycle_end,
  direction: r.direction as AdjustmentDirection,
  billedBytes: r.billed_bytes,
  rawBytes: r.raw_bytes,
  note: r.note,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  supersededBy: r.superseded_by,
});
