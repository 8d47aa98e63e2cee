import type {
  PressureStatsView,
  PressureView,
  SmartDeviceView,
  SmartView,
  ThermalView,
} from '../../protocol/front-view.js';
import type {
  ReportPressure,
  ReportPressureStats,
  ReportSmart,
  ReportThermal,
} from '../../protocol/node-report.js';
import { formatRfc3339Seconds, parseRfc3339 } from '../../platform/rfc3339.js';
import { validTemp } from '../ingest/physical-disk.js';

/**
 * SMART, thermal and pressure as the front view shows them. They are cached apart from the
 * node snapshot and re-attached only for the same received_at (spec §2.3).
 */

const utc = (t: string | null | undefined) => {
  const ms = t ? parseRfc3339(t) : undefined;
  return ms === undefined ? undefined : formatRfc3339Seconds(ms);
};

export function smartView(s: ReportSmart | null | undefined): SmartView | undefined {
  if (!s) return undefined;
  const devices: SmartDeviceView[] = (s.devices ?? []).map((d) => {
    const v: SmartDeviceView = {
      name: d.name ?? '',
      source: d.source ?? '',
      status: d.status ?? '',
    };
    // Member by member rather than a loop over the field names: named stores in a fixed order,
    // which V8 keeps on one chain of shapes, where keyed stores with a variable name were
    // generic lookups (every device of every report).
    if (d.ref) v.ref = d.ref;
    if (d.device_path) v.device_path = d.device_path;
    if (d.device_type) v.device_type = d.device_type;
    if (d.protocol) v.protocol = d.protocol;
    if (d.model) v.model = d.model;
    if (d.serial) v.serial = d.serial;
    if (d.wwn) v.wwn = d.wwn;
    if (typeof d.exit_status === 'number') v.exit_status = d.exit_status;
    if (typeof d.power_on_hours === 'number') v.power_on_hours = d.power_on_hours;
    if (typeof d.lifetime_used_percent === 'number') {
      v.lifetime_used_percent = d.lifetime_used_percent;
    }
    if (typeof d.critical_warning === 'number') v.critical_warning = d.critical_warning;
    if (typeof d.media_errors === 'number') v.media_errors = d.media_errors;
    if (typeof d.health === 'string') v.health = d.health;
    if (validTemp(d.temp_c)) v.temp_c = d.temp_c;
    if (d.failing_attrs) {
      v.failing_attrs = d.failing_attrs.map((a) => ({
        ...(a.id ? { id: a.id } : {}),
        name: a.name ?? '',
        when_failed: a.when_failed ?? '',
      }));
    }
    return v;
  });
  const view: SmartView = { status: s.status ?? '', devices };
  const updated = utc(s.updated_at);
  if (updated) view.updated_at = updated;
  if (s.ttl_seconds) view.ttl_seconds = s.ttl_seconds;
  return view;
}

export function thermalView(t: ReportThermal | null | undefined): ThermalView | undefined {
  if (!t) return undefined;
  const sensors: ThermalView['sensors'] = [];
  for (const s of t.sensors ?? []) {
    if (!validTemp(s.temp_c)) continue;
    sensors.push({
      kind: s.kind ?? '',
      name: s.name ?? '',
      sensor_key: s.sensor_key ?? '',
      source: s.source ?? '',
      status: s.status ?? '',
      temp_c: s.temp_c,
      ...(validTemp(s.high_c) ? { high_c: s.high_c } : {}),
      ...(validTemp(s.critical_c) ? { critical_c: s.critical_c } : {}),
    });
  }
  const view: ThermalView = { status: t.status ?? '', sensors };
  const updated = utc(t.updated_at);
  if (updated) view.updated_at = updated;
  return view;
}

function stats(s: ReportPressureStats | null | undefined): PressureStatsView | undefined {
  if (!s) return undefined;
  return { avg10: s.avg10 ?? 0, avg60: s.avg60 ?? 0, avg300: s.avg300 ?? 0, total: s.total ?? 0 };
}

const PRESSURE_RESOURCES = ['cpu', 'memory', 'io'] as const;

/** A resource with neither `some` nor `full` is dropped; nothing left means no pressure. */
export function pressureView(p: ReportPressure | null | undefined): PressureView | undefined {
  if (!p) return undefined;
  const view: PressureView = {};
  let any = false;
  for (const res of PRESSURE_RESOURCES) {
    const some = stats(p[res]?.some);
    const full = stats(p[res]?.full);
    if (!some && !full) continue;
    // Built member by member (some before full) rather than from spread literals: one object
    // per resource on every report instead of three.
    const entry: { some?: PressureStatsView; full?: PressureStatsView } = {};
    if (some) entry.some = some;
    if (full) entry.full = full;
    view[res] = entry;
    any = true;
  }
  return any ? view : undefined;
}

/*
 * JSON of the pressure view, written for its fixed shape of numbers: the same text as
 * JSON.stringify of the view (test/domain/front/side-json.test.ts compares them on random
 * reports), about a quarter cheaper since it neither enumerates nor quotes keys. (The same for
 * the thermal view, whose members are mostly strings, was twice as slow as JSON.stringify: one
 * JSON.stringify call per string costs more than the native walk.)
 */

/** A number as JSON.stringify writes it (non-finite numbers are null). */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');

function statsJson(s: PressureStatsView): string {
  return (
    `{"avg10":${num(s.avg10)},"avg60":${num(s.avg60)},` +
    `"avg300":${num(s.avg300)},"total":${num(s.total)}}`
  );
}

export function pressureJson(view: PressureView | undefined): string | null {
  if (view === undefined) return null;
  let out = '{';
  for (const res of PRESSURE_RESOURCES) {
    const entry = view[res];
    if (entry === undefined) continue;
    if (out.length > 1) out += ',';
    out += `"${res}":{`;
    if (entry.some !== undefined) out += '"some":' + statsJson(entry.some);
    if (entry.full !== undefined) {
      out += (entry.some !== undefined ? ',"full":' : '"full":') + statsJson(entry.full);
    }
    out += '}';
  }
  return out + '}';
}
