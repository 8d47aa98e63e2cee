import { AppError } from '../../errors/app-error.js';
import { parseRfc3339 } from '../../platform/rfc3339.js';
import { rfc3339 } from '../../platform/time-format.js';
import type {
  CalibrationBasis,
  TrafficAdjustment,
  TrafficCalibration,
  TrafficForecast,
  TrafficStats,
} from '../../protocol/traffic.js';
import type { AdjustmentDirection, TrafficAdjustmentRow } from '../../store/ports.js';
import { cycleAt, type NodeCycle } from './cycle-bounds.js';

/**
 * Calibration (beyond the reference): an admin records what the provider's bill says for one
 * billing cycle of one interface, in one explicit direction. The ratio bill ÷ Dash's raw bytes
 * of that cycle then gives adjusted figures beside the raw ones: the billed cycle itself (the
 * billed direction equals the bill), its days (their share), and later cycles without a bill
 * of their own (an estimate from the latest billed cycle before them).
 */

const NOTE_MAX = 255;
const IFACE_MAX = 64;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const FIELDS = new Set(['iface', 'cycle_start', 'direction', 'billed_bytes', 'note']);
const DIRECTIONS: readonly AdjustmentDirection[] = ['in', 'out', 'total'];

export interface AdjustmentInput {
  iface: string;
  cycleStart: number;
  direction: AdjustmentDirection;
  billedBytes: number;
  note: string;
}

/** The body of a new record, each field checked with its own error code. */
export function parseAdjustmentInput(body: unknown): AdjustmentInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('invalid_fields', 'the body must be a JSON object');
  }
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !FIELDS.has(k));
  if (unknown.length > 0) {
    throw new AppError('invalid_fields', `unknown field(s): ${unknown.join(', ')}`);
  }
  const iface = typeof b.iface === 'string' ? b.iface.trim() : '';
  if (
    iface === '' ||
    iface.toLowerCase() === 'all' ||
    [...iface].length > IFACE_MAX ||
    CONTROL.test(iface)
  ) {
    throw new AppError('invalid_traffic_adjustment_iface');
  }
  const cycleStart = typeof b.cycle_start === 'string' ? parseRfc3339(b.cycle_start) : undefined;
  if (cycleStart === undefined) throw new AppError('invalid_traffic_adjustment_cycle');
  if (!DIRECTIONS.includes(b.direction as AdjustmentDirection)) {
    throw new AppError('invalid_traffic_adjustment_direction');
  }
  const billed = b.billed_bytes;
  if (typeof billed !== 'number' || !Number.isSafeInteger(billed) || billed <= 0) {
    throw new AppError('invalid_traffic_adjustment_bytes');
  }
  let note = '';
  if (b.note !== undefined && b.note !== null) {
    if (typeof b.note !== 'string') throw new AppError('invalid_traffic_adjustment_note');
    note = b.note.trim();
    if ([...note].length > NOTE_MAX || CONTROL.test(note)) {
      throw new AppError('invalid_traffic_adjustment_note');
    }
  }
  return {
    iface,
    cycleStart,
    direction: b.direction as AdjustmentDirection,
    billedBytes: billed,
    note,
  };
}

/** Raw bytes of a figure in one direction. */
export function rawIn(
  dir: AdjustmentDirection,
  raw: { inBytes: number; outBytes: number },
): number {
  return dir === 'in' ? raw.inBytes : dir === 'out' ? raw.outBytes : raw.inBytes + raw.outBytes;
}

/** Whether the node's cycles (as set now) still have a cycle with exactly these bounds. */
export function matchesCycle(row: TrafficAdjustmentRow, cycle: NodeCycle): boolean {
  const w = cycleAt(cycle, row.cycleStart);
  return w.start === row.cycleStart && w.end === row.cycleEnd;
}

export function presentAdjustment(row: TrafficAdjustmentRow, cycle: NodeCycle): TrafficAdjustment {
  return {
    id: row.id,
    server_id: row.nodeId,
    iface: row.iface,
    cycle_start: rfc3339(row.cycleStart),
    cycle_end: rfc3339(row.cycleEnd),
    direction: row.direction,
    billed_bytes: row.billedBytes,
    raw_bytes: row.rawBytes,
    note: row.note,
    created_at: rfc3339(row.createdAt),
    status:
      row.revokedAt === null ? 'active' : row.supersededBy !== null ? 'superseded' : 'revoked',
    revoked_at: row.revokedAt === null ? null : rfc3339(row.revokedAt),
    superseded_by: row.supersededBy,
    matches_cycle: matchesCycle(row, cycle),
  };
}

/**
 * The record that calibrates cycle `w`: its own bill, else the bill of the latest cycle that
 * ended by the time `w` starts. `active` is newest cycle first.
 */
export function recordFor(
  active: readonly TrafficAdjustmentRow[],
  w: { start: number; end: number },
): { row: TrafficAdjustmentRow; own: boolean } | undefined {
  const own = active.find((a) => a.cycleStart === w.start && a.cycleEnd === w.end);
  if (own) return { row: own, own: true };
  const earlier = active.find((a) => a.cycleEnd <= w.start);
  return earlier ? { row: earlier, own: false } : undefined;
}

/**
 * Bill ÷ raw, with the billed cycle's raw bytes as Dash has them now (a rebuild or late data
 * may have moved them since); the raw bytes recorded with the bill when none are left.
 */
export function ratioOf(row: TrafficAdjustmentRow, rawNow: number | undefined): number {
  const raw = rawNow !== undefined && rawNow > 0 ? rawNow : row.rawBytes;
  return row.billedBytes / raw;
}

export interface AppliedCalibration {
  row: TrafficAdjustmentRow;
  basis: CalibrationBasis;
  ratio: number;
}

/**
 * Adds the adjusted figures to a period's stats. For the billed cycle the billed direction is
 * the bill exactly (a `total` bill is split between in and out in their raw proportion); every
 * other figure is raw × ratio.
 */
export function withCalibration(stats: TrafficStats, c: AppliedCalibration): TrafficStats {
  const r = c.ratio;
  let aIn = Math.round(stats.in_bytes * r);
  let aOut = Math.round(stats.out_bytes * r);
  if (c.basis === 'bill') {
    if (c.row.direction === 'in') aIn = c.row.billedBytes;
    else if (c.row.direction === 'out') aOut = c.row.billedBytes;
    else {
      aIn = Math.min(aIn, c.row.billedBytes);
      aOut = c.row.billedBytes - aIn;
    }
  }
  const sel = stats.selected_bytes_direction;
  const calibration: TrafficCalibration = {
    adjustment_id: c.row.id,
    basis: c.basis,
    source_cycle_start: rfc3339(c.row.cycleStart),
    source_cycle_end: rfc3339(c.row.cycleEnd),
    direction: c.row.direction,
    billed_bytes: c.row.billedBytes,
    ratio: c.ratio,
  };
  return {
    ...stats,
    adjusted_in_bytes: aIn,
    adjusted_out_bytes: aOut,
    adjusted_selected_bytes: sel === 'in' ? aIn : sel === 'out' ? aOut : aIn + aOut,
    calibration,
  };
}

/** The forecast's projected figures times the ratio: the estimated bill at the cycle end. */
export function forecastWithCalibration(
  f: TrafficForecast,
  c: AppliedCalibration,
): TrafficForecast {
  if (f.projected_selected_bytes === null) return f;
  const scale = (v: number | null) => Math.round((v ?? 0) * c.ratio);
  return {
    ...f,
    adjusted_projected_selected_bytes: scale(f.projected_selected_bytes),
    adjusted_projected_selected_bytes_low: scale(f.projected_selected_bytes_low),
    adjusted_projected_selected_bytes_high: scale(f.projected_selected_bytes_high),
  };
}
