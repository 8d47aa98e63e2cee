import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pressureJson, pressureView, smartView } from '../../../src/domain/front/side-views.js';
import { validTemp } from '../../../src/domain/ingest/physical-disk.js';
import type { SmartDeviceView } from '../../../src/protocol/front-view.js';
import type { ReportPressure, ReportSmart } from '../../../src/protocol/node-report.js';
import { agentReport, windowsAgentReport } from '../../support/agent-payloads.js';

/**
 * The hand-written pressure JSON must be exactly JSON.stringify of the view (the view body,
 * the stored projection and the front answer all carry these bytes).
 */

const reference = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/** Numbers JSON.parse can give: integers, fractions, zero, negatives, extremes. */
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 123.456, 2 ** 53, -(2 ** 63), Number.MIN_VALUE),
);
const orNull = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(arb, fc.constant(null), fc.constant(undefined));

const stats = fc.record(
  { avg10: number, avg60: number, avg300: number, total: number },
  { requiredKeys: [] },
);
const resource = fc.record(
  { status: fc.anything(), some: orNull(stats), full: orNull(stats) },
  { requiredKeys: [] },
);
const pressure = fc.record(
  { cpu: orNull(resource), memory: orNull(resource), io: orNull(resource) },
  { requiredKeys: [] },
) as fc.Arbitrary<ReportPressure>;

describe('side payload JSON', () => {
  it('is JSON.stringify of the pressure view on random reports', () => {
    fc.assert(
      fc.property(orNull(pressure), (p) => {
        const view = pressureView(p);
        expect(pressureJson(view)).toBe(reference(view));
      }),
      { numRuns: 2000 },
    );
  });

  it('is JSON.stringify of the view of the agents’ payloads', () => {
    for (let seq = 0; seq < 40; seq++) {
      for (const r of [agentReport({ seq }), windowsAgentReport(seq)]) {
        const p = pressureView((r.metrics as { pressure?: ReportPressure }).pressure);
        expect(pressureJson(p)).toBe(reference(p));
      }
    }
    const linux = agentReport({ seq: 1 }).metrics as { pressure?: ReportPressure };
    // The payloads do exercise the writer (not only its empty case).
    expect(pressureJson(pressureView(linux.pressure))).toContain('"some":{"avg10":');
  });

  it('writes non-finite numbers as null, as JSON.stringify does', () => {
    const view = { cpu: { some: { avg10: NaN, avg60: Infinity, avg300: -Infinity, total: -0 } } };
    expect(pressureJson(view)).toBe(JSON.stringify(view));
  });
});

/** smartView's device loop as it was (keyed stores over field lists), the reference. */
const TEXT_FIELDS = ['ref', 'device_path', 'device_type', 'protocol', 'model', 'serial', 'wwn'];
const NUMBER_FIELDS = [
  'exit_status',
  'power_on_hours',
  'lifetime_used_percent',
  'critical_warning',
  'media_errors',
];
function referenceDevice(d: Record<string, unknown>): SmartDeviceView {
  const v: Record<string, unknown> = {
    name: d.name ?? '',
    source: d.source ?? '',
    status: d.status ?? '',
  };
  for (const k of TEXT_FIELDS) if (d[k]) v[k] = d[k];
  for (const k of NUMBER_FIELDS) if (typeof d[k] === 'number') v[k] = d[k];
  if (typeof d.health === 'string') v.health = d.health;
  if (validTemp(d.temp_c as number)) v.temp_c = d.temp_c;
  if (d.failing_attrs) {
    v.failing_attrs = (d.failing_attrs as Array<Record<string, unknown>>).map((a) => ({
      ...(a.id ? { id: a.id } : {}),
      name: a.name ?? '',
      when_failed: a.when_failed ?? '',
    }));
  }
  return v as unknown as SmartDeviceView;
}

const smartText = fc.oneof(fc.string(), fc.constantFrom('', 'nvme0', 'a"b'));
const smartDevice = fc.record(
  {
    ref: orNull(smartText),
    name: orNull(smartText),
    device_path: orNull(smartText),
    device_type: orNull(smartText),
    protocol: orNull(smartText),
    model: orNull(smartText),
    serial: orNull(smartText),
    wwn: orNull(smartText),
    source: orNull(smartText),
    status: orNull(smartText),
    exit_status: orNull(number),
    health: orNull(smartText),
    temp_c: orNull(number),
    power_on_hours: orNull(number),
    lifetime_used_percent: orNull(number),
    critical_warning: orNull(number),
    media_errors: orNull(number),
    failing_attrs: orNull(
      fc.array(
        fc.record(
          { id: orNull(number), name: orNull(smartText), when_failed: orNull(smartText) },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('smartView', () => {
  it('gives each device the members of the field-list loop, in the same order', () => {
    fc.assert(
      fc.property(fc.array(smartDevice, { maxLength: 4 }), (devices) => {
        const view = smartView({ status: 'ok', devices } as ReportSmart);
        const expected = devices.map((d) => referenceDevice(d as Record<string, unknown>));
        expect(JSON.stringify(view?.devices)).toBe(JSON.stringify(expected));
      }),
      { numRuns: 2000 },
    );
    const disk = (agentReport({ seq: 2 }).metrics as { disk: { smart: ReportSmart } }).disk;
    const view = smartView(disk.smart);
    expect(JSON.stringify(view?.devices)).toBe(
      JSON.stringify(disk.smart.devices!.map((d) => referenceDevice(d as Record<string, unknown>))),
    );
    expect(view?.devices[0]).toHaveProperty('model');
  });
});
