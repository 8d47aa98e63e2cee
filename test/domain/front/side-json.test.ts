import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pressureJson, pressureView } from '../../../src/domain/front/side-views.js';
import type { ReportPressure } from '../../../src/protocol/node-report.js';
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
