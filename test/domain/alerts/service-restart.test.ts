import { describe, expect, it } from 'vitest';
import { AlertsService } from '../../../src/domain/alerts/service.js';
import { STARTUP_GRACE_MS } from '../../../src/domain/alerts/evaluator.js';
import type { AcceptedReport } from '../../../src/domain/ingest/report-events.js';
import { openSqliteStore } from '../../../src/store/sqlite/open.js';
import { FakeClock } from '../../support/fake-clock.js';
import { cpu } from './view.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

function report(nodeId: number, receivedAt: number, ratio: number): AcceptedReport {
  return {
    nodeId,
    receivedAt,
    counters: [],
    readings: alertReadings(cpu(ratio)),
    view: () => cpu(ratio),
  };
}

describe('alerts service across a restart', () => {
  it('restores open events: a restart neither closes nor duplicates them', async () => {
    const store = openSqliteStore(':memory:', T0);
    store.raw
      .prepare(
        `INSERT INTO nodes (name, secret_enc, created_at, updated_at) VALUES ('n', 'x', 0, 0)`,
      )
      .run();
    const clock = new FakeClock(T0);
    const make = () =>
      new AlertsService({
        repo: store.alerts,
        clock,
        staleAfterMs: 30_000,
        onError: (e) => {
          throw e;
        },
      });
    const first = make();
    await first.start([]);
    await first.createRule({
      name: 'cpu',
      metric: 'cpu.usage_ratio',
      operator: '>',
      threshold: 0.8,
      duration_sec: 0,
    });
    await first.setMounts([1], [1], true);
    clock.advance(STARTUP_GRACE_MS);
    first.onReport(report(1, clock.now(), 0.9));
    await first.flush();
    const rows = () => store.raw.prepare('SELECT id, status, close_reason FROM alert_events').all();
    expect(rows()).toEqual([{ id: 1, status: 'open', close_reason: null }]);

    // restart: a new service over the same store, inside its startup minute
    clock.advance(10_000);
    const second = make();
    await second.start([{ nodeId: 1, receivedAt: clock.now() - 10_000 }]);
    expect(second.firing()).toEqual([{ nodeId: 1, ruleId: 1 }]);
    second.onReport(report(1, clock.now(), 0.95));
    await second.flush();
    expect(rows()).toEqual([{ id: 1, status: 'open', close_reason: null }]);
    clock.advance(3000);
    second.onReport(report(1, clock.now(), 0.1));
    await second.flush();
    expect(rows()).toEqual([{ id: 1, status: 'closed', close_reason: 'condition_cleared' }]);
    expect(
      store.raw.prepare('SELECT event_id, transition FROM alert_transitions ORDER BY id').all(),
    ).toEqual([
      { event_id: 1, transition: 'opened' },
      { event_id: 1, transition: 'closed' },
    ]);
    await store.close();
  });

  it('closes open events of a stored rule that no longer validates with rule_invalid', async () => {
    const store = openSqliteStore(':memory:', T0);
    store.raw
      .prepare(
        `INSERT INTO nodes (name, secret_enc, created_at, updated_at) VALUES ('n', 'x', 0, 0)`,
      )
      .run();
    const clock = new FakeClock(T0);
    const svc = new AlertsService({
      repo: store.alerts,
      clock,
      staleAfterMs: 30_000,
      onError: (e) => {
        throw e;
      },
    });
    await svc.start([]);
    await svc.createRule({
      name: 'cpu',
      metric: 'cpu.usage_ratio',
      operator: '>',
      threshold: 0.8,
      duration_sec: 0,
    });
    await svc.setMounts([1], [1], true);
    clock.advance(STARTUP_GRACE_MS);
    svc.onReport(report(1, clock.now(), 0.9));
    await svc.flush();
    store.raw.prepare(`UPDATE alert_rules SET metric = 'cpu.gone'`).run();
    const restarted = new AlertsService({
      repo: store.alerts,
      clock,
      staleAfterMs: 30_000,
      onError: (e) => {
        throw e;
      },
    });
    await restarted.start([]);
    expect(store.raw.prepare('SELECT status, close_reason FROM alert_events').all()).toEqual([
      { status: 'closed', close_reason: 'rule_invalid' },
    ]);
    await store.close();
  });
});
