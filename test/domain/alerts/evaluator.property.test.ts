import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlertEvaluator, type AlertAction } from '../../../src/domain/alerts/evaluator.js';
import { BUILTIN_RULES } from '../../../src/domain/alerts/builtin-rules.js';
import type { AlertRule } from '../../../src/domain/alerts/rule.js';
import { cpu } from './view.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const STALE_MS = 30_000;

const step = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('report' as const),
      node: fc.integer({ min: 1, max: 3 }),
      advance: fc.oneof(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 400_000 })),
      /** Sometimes a report received earlier than the last one (must be ignored). */
      late: fc.boolean(),
      value: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('tick' as const),
      advance: fc.integer({ min: 0, max: 120_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('reconfigure' as const),
      enabled: fc.boolean(),
      mounted: fc.boolean(),
      bump: fc.boolean(),
    }),
  },
);

const ruleArb = fc.record({
  durationSec: fc.constantFrom(0, 60, 300),
  cooldownMin: fc.constantFrom(0, 1, 5),
  threshold: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
  /** Hysteresis: none, or a clear threshold this far below the trigger threshold. */
  clearGap: fc.option(fc.double({ min: 0, max: 0.1, noNaN: true }), { nil: null }),
});

describe('alert state machine over random report streams', () => {
  it('opens once, closes once, never closes what is not open, never misses a close', () => {
    fc.assert(
      fc.property(ruleArb, fc.array(step, { minLength: 20, maxLength: 150 }), (params, steps) => {
        let now = T0;
        let rule: AlertRule = {
          id: 1,
          name: 'r',
          enabled: true,
          metric: 'cpu.usage_ratio',
          operator: '>',
          threshold: params.threshold,
          durationSec: params.durationSec,
          cooldownMin: params.cooldownMin,
          thresholdMode: 'static',
          thresholdOffset: 0,
          clearThreshold: params.clearGap === null ? null : params.threshold - params.clearGap,
          repeatIntervalMin: 0,
          repeatMax: null,
          generation: 1,
          generationAt: T0,
          createdAt: T0,
          updatedAt: T0,
        };
        let mounted = true;
        const ev = new AlertEvaluator({ startedAt: T0, staleAfterMs: STALE_MS });
        const mounts = () => [1, 2, 3].map((nodeId) => ({ ruleId: 1, nodeId, mounted }));
        const open = new Set<string>();
        const lastReceived = new Map<number, number>();
        const apply = (actions: AlertAction[]) => {
          for (const a of actions) {
            const key = `${a.nodeId}:${a.kind === 'open' ? a.rule.id : a.ruleId}`;
            if (a.kind === 'open') {
              expect(open.has(key), `opened twice: ${key}`).toBe(false);
              expect(now - T0).toBeGreaterThanOrEqual(60_000);
              open.add(key);
            } else {
              expect(open.has(key), `${a.kind} without open: ${key}`).toBe(true);
              if (a.kind === 'close') open.delete(key);
            }
          }
        };
        apply(ev.configure([...BUILTIN_RULES, rule], mounts(), now));
        for (const s of steps) {
          if (s.type === 'tick') {
            now += s.advance;
            apply(ev.tick(now));
          } else if (s.type === 'reconfigure') {
            mounted = s.mounted;
            rule = {
              ...rule,
              enabled: s.enabled,
              ...(s.bump ? { generation: rule.generation + 1, generationAt: now } : {}),
            };
            apply(ev.configure([...BUILTIN_RULES, rule], mounts(), now));
            if (!rule.enabled || !mounted)
              expect([...open].filter((k) => k.endsWith(':1'))).toEqual([]);
          } else {
            now += s.advance;
            const prev = lastReceived.get(s.node);
            const at = s.late && prev !== undefined ? prev - 1 : now;
            const wasOpen = open.has(`${s.node}:1`);
            apply(ev.observe(s.node, at, alertReadings(cpu(s.value)), now));
            const fresh = prev === undefined || at >= prev;
            if (fresh) lastReceived.set(s.node, at);
            // no missed close: a fresh report at or under the clear threshold leaves nothing open
            const clear = rule.clearThreshold ?? rule.threshold;
            if (fresh && s.value <= clear) expect(open.has(`${s.node}:1`)).toBe(false);
            // hysteresis: a fresh report between the two thresholds never closes an open event
            if (fresh && wasOpen && s.value > clear) expect(open.has(`${s.node}:1`)).toBe(true);
            // a fresh report means the node is online: its offline event is closed
            if (fresh && at === now) expect(open.has(`${s.node}:-1`)).toBe(false);
          }
          const firing = new Set(ev.firing().map((f) => `${f.nodeId}:${f.ruleId}`));
          expect(firing).toEqual(open);
        }
      }),
      { numRuns: 200 },
    );
  });
});
