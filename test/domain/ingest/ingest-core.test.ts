import { describe, expect, it } from 'vitest';
import { renderBodyJson, type RenderFacts } from '../../../src/domain/front/render.js';
import { IngestCore, type CoreResult } from '../../../src/domain/ingest/ingest-core.js';
import { nodeReportDecoder } from '../../../src/protocol/decode-node-report.js';
import type { MetricsWrite } from '../../../src/store/ports.js';
import { agentReport } from '../../support/agent-payloads.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const facts: RenderFacts = {
  os: 'linux',
  platform: 'debian',
  platformVersion: '12.8',
  kernelVersion: '6.1.0',
  arch: 'x86_64',
  static: { cpu: { sockets: 1 }, memory: {}, raid: { supported: false, available: false } },
};

function core(outcomes: (w: readonly MetricsWrite[]) => Array<'current' | 'history'>) {
  return new IngestCore(nodeReportDecoder(), { commitBatch: outcomes }, () => T0, 17);
}

const raw = (nodeId: number, body: string) => ({
  nodeId,
  receivedAt: T0,
  deadline: T0 + 5000,
  body: Buffer.from(body),
  ip: null,
});

describe('IngestCore.processBatch', () => {
  it('renders the view beside the decode once the node’s facts are known', () => {
    const c = core((w) => w.map(() => 'current'));
    const body = JSON.stringify(agentReport({ seq: 3 }));
    const [without] = c.processBatch([raw(1, body)]);
    c.setFacts(1, facts);
    const [rendered] = c.processBatch([raw(1, body)]);
    if (!without?.ok || !rendered?.ok) throw new Error('expected stored reports');
    if (!('runtime' in without.view) || !('bodyJson' in rendered.view)) {
      throw new Error('expected the raw parts first, then a rendered body');
    }
    expect(rendered.view.bodyJson).toBe(
      renderBodyJson(facts, without.view.runtime, without.view.side, 17),
    );
    c.setFacts(1, null);
    const [again] = c.processBatch([raw(1, body)]);
    expect(again?.ok && 'runtime' in again.view).toBe(true);
  });

  it('answers each report of a batch on its own: bad ones fail, good ones are stored', () => {
    const stored: number[] = [];
    const c = core((w) => w.map((e) => (stored.push(e.nodeId), 'current')));
    const out: CoreResult[] = c.processBatch([
      raw(1, JSON.stringify(agentReport())),
      raw(2, '{"version":'),
      raw(3, JSON.stringify({ ...agentReport(), version: '' })),
      raw(4, JSON.stringify(agentReport())),
    ]);
    expect(out.map((r) => (r.ok ? r.outcome : r.code))).toEqual([
      'current',
      'invalid_request',
      'invalid_metrics',
      'current',
    ]);
    expect(stored).toEqual([1, 4]);
  });

  it('answers 503 for the whole batch when the commit fails, and nothing as stored', () => {
    const c = core(() => {
      throw new Error('disk I/O error');
    });
    const out = c.processBatch([raw(1, JSON.stringify(agentReport())), raw(2, '[')]);
    expect(out.map((r) => (r.ok ? r.outcome : r.code))).toEqual([
      'service_unavailable',
      'invalid_request',
    ]);
  });
});
