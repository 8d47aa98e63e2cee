import { describe, expect, it } from 'vitest';
import { alertReadings } from '../../../src/domain/alerts/readings.js';
import { FrontState } from '../../../src/domain/front/front-state.js';
import { runtimeView } from '../../../src/domain/front/runtime-view.js';
import { pressureView, smartView, thermalView } from '../../../src/domain/front/side-views.js';
import type { ReportDigest } from '../../../src/domain/ingest/report-digest.js';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import type { CurrentRow, FrontRepo } from '../../../src/store/ports.js';
import { agentReport, windowsAgentReport } from '../../support/agent-payloads.js';
import { frontNodeRow } from '../../support/front-rows.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

const node = frontNodeRow(1);

/** node_current / node_live as another instance's ingest leaves it for one report. */
function stored(receivedAt: number, report: object): CurrentRow {
  const v = validateMetricsReport(report);
  const m = v.metrics;
  const json = (x: unknown) => (x === undefined ? null : JSON.stringify(x));
  const runtime = runtimeView(m, receivedAt, v.reportedAt, '2026-11-21T11:00:00.000Z');
  return {
    nodeId: 1,
    receivedAt,
    reportedAt: v.reportedAt,
    firstReceivedAt: T0,
    runtimeJson: JSON.stringify(runtime),
    smartJson: json(smartView(m.disk?.smart)),
    thermalJson: json(thermalView(m.thermal)),
    pressureJson: json(pressureView(m.pressure)),
  };
}

describe('front state: reports of other instances', () => {
  it('hands the leader the readings and counters the installed view holds, without parsing it', async () => {
    const currents = new Map<number, CurrentRow>();
    const repo: FrontRepo = {
      liveNodes: async () => [node],
      currentRows: async () => [...currents.values()],
    };
    const front = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await front.load();
    const report = agentReport({ seq: 2 }) as { metrics: { network: object[] } };
    // A counter the report lacks shows as 0 in the view and must stay unknown.
    report.metrics.network.push({ name: 'wg0', bytes_recv: 5 });
    for (const [at, r] of [
      [T0, report],
      [T0 + 3000, windowsAgentReport()],
    ] as const) {
      currents.set(1, stored(at, r));
      const got: Array<{ nodeId: number; receivedAt: number; digest: ReportDigest }> = [];
      const changed = await front.refreshCurrent([1], (nodeId, receivedAt, digest) =>
        got.push({ nodeId, receivedAt, digest }),
      );
      expect(changed).toEqual([1]);
      const view = front.view(1)!;
      expect(got).toEqual([
        {
          nodeId: 1,
          receivedAt: at,
          digest: {
            readings: alertReadings(view),
            counters: (view.network.by_interface ?? []).map((i) => ({
              name: i.name,
              rx: i.bytes_recv > 0 ? i.bytes_recv : null,
              tx: i.bytes_sent > 0 ? i.bytes_sent : null,
            })),
          },
        },
      ]);
      expect(Object.keys(got[0]!.digest.readings?.values ?? {}).length).toBeGreaterThan(3);
    }
    // Nothing newer: nothing installed, nothing handed on.
    const again: number[] = [];
    expect(await front.refreshCurrent([1], (id) => again.push(id))).toEqual([]);
    expect(again).toEqual([]);
  });
});

describe('front state: reports of other instances, followed lazily', () => {
  it('notes followed nodes without reading them; a catch-up reads and stages them for the next read', async () => {
    const currents = new Map<number, CurrentRow>();
    let reads = 0;
    const repo: FrontRepo = {
      liveNodes: async () => [node],
      currentRows: async () => {
        reads++;
        return [...currents.values()];
      },
    };
    const front = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await front.load();
    reads = 0;
    expect(front.catchUp()).toBeUndefined();
    // The node's first report, accepted by another instance.
    currents.set(1, stored(T0, agentReport({ seq: 1 })));
    const v0 = front.version;
    front.follow([1]);
    expect(front.version).not.toBe(v0);
    expect(reads).toBe(0);
    expect(front.list()).toEqual([]);
    expect(front.unreadFollowed).toBe(1);
    await front.catchUp();
    expect(reads).toBe(1);
    expect(front.list()).toEqual([{ nodeId: 1, guestVisible: false }]);
    expect(front.receivedAt(1)).toBe(T0);
    const eager = new FrontState({ repo, staleAfterSec: 17, warn: () => {} });
    await eager.load();
    expect(front.json(1)).toBe(eager.json(1));
    // A newer one: the view read before catching up is the old one, after it the new one.
    currents.set(1, stored(T0 + 3000, windowsAgentReport()));
    front.follow([1]);
    expect(front.receivedAt(1)).toBe(T0);
    await front.catchUp();
    expect(front.receivedAt(1)).toBe(T0 + 3000);
    await eager.refreshCurrent([1]);
    expect(front.json(1)).toBe(eager.json(1));
    // The same report noted again is read but not rendered again.
    const v1 = front.version;
    front.follow([1]);
    await front.catchUp();
    expect(front.version).toBe(v1 + 1);
  });
});
