import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { startIngestWorker } from '../../src/workers/ingest-worker-client.js';
import { agentReport } from '../support/agent-payloads.js';
import { tempHome } from '../support/build-app.js';
import { seedNodes } from '../support/seed-home.js';

const NODES = 40;
const T = 1_764_000_000_000;

describe('a seal on the ingest thread', () => {
  it('lets a report that arrives during the seal commit and be answered before it ends', async () => {
    const home = tempHome();
    await seedNodes(home, NODES);
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('info', {
      write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>),
    });
    // One node per seal step: the seal below takes NODES transactions.
    const backend = startIngestWorker(join(home, 'dash.db'), log, () => T, 15, {
      shard: 0,
      sealStepBytes: 1,
    });
    try {
      const report = (nodeId: number, at: number) =>
        backend.process({
          nodeId,
          receivedAt: at,
          deadline: at + 60_000,
          body: new Uint8Array(Buffer.from(JSON.stringify(agentReport({ seq: at % 1000 })))),
          ip: null,
        });
      // Two reports per node: samples (and projections) in the log for the seal to write.
      for (const at of [T, T + 3000]) {
        const answers = await Promise.all(
          Array.from({ length: NODES }, (_, i) => report(i + 1, at)),
        );
        expect(answers.every((a) => a.ok)).toBe(true);
      }
      const order: string[] = [];
      const seal = backend.sealOpenLog!(T + 3_600_000).then(() => order.push('seal'));
      const during = report(1, T + 6000).then((r) => {
        expect(r.ok).toBe(true);
        order.push('report');
      });
      await Promise.all([seal, during]);
      // One transaction for the whole seal answered the report only after it.
      expect(order).toEqual(['report', 'seal']);
      // How long it held commits is logged.
      const sealed = lines.find((l) => l.msg === 'open-block log sealed');
      expect(sealed).toMatchObject({ shard: 0, points: 2 * NODES });
      expect(sealed?.steps).toBeGreaterThanOrEqual(NODES);
      expect(typeof sealed?.longestStepMs).toBe('number');
    } finally {
      await backend.close();
    }
  });
});
