import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { CoreResult } from '../../src/domain/ingest/ingest-core.js';
import { packViews } from '../../src/workers/packed-views.js';

const rendered = (bodyJson: string): CoreResult => ({
  ok: true,
  outcome: 'current',
  version: '1.0.0',
  view: { bodyJson },
  digest: { counters: [] },
});

describe('packViews', () => {
  it('moves every rendered body into one buffer, leaving other answers as they are', () => {
    const failed: CoreResult = { ok: false, code: 'invalid_metrics', message: 'no' };
    const unrendered: CoreResult = {
      ok: true,
      outcome: 'current',
      version: '1.0.0',
      view: {
        runtime: {} as never,
        side: { smartJson: null, thermalJson: null, pressureJson: null },
      },
      digest: { counters: [] },
    };
    const results = [rendered('"a":1'), failed, unrendered, rendered('"t":"é€"')];
    const buffer = packViews(results);
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    const bodies = results.map((r) => (r.ok && 'bodyBytes' in r.view ? r.view.bodyBytes : null));
    expect(bodies.map((b) => b && Buffer.from(b).toString('utf8'))).toEqual([
      '"a":1',
      null,
      null,
      '"t":"é€"',
    ]);
    // Both are views of the one buffer to transfer, back to back.
    expect(bodies[0]!.buffer).toBe(buffer);
    expect(bodies[3]!.buffer).toBe(buffer);
    expect(buffer!.byteLength).toBe(5 + Buffer.byteLength('"t":"é€"'));
    expect(results[1]).toBe(failed);
    expect(results[2]).toBe(unrendered);
  });

  it('allocates nothing when no answer carries a rendered body', () => {
    expect(packViews([{ ok: false, code: 'invalid_request', message: 'bad' }])).toBeUndefined();
  });

  it('gives the bytes a buffer of their own that survives a transfer to another thread', () => {
    const results = [rendered('"x":[1,2,3]')];
    const buffer = packViews(results)!;
    const { port1, port2 } = new MessageChannel();
    return new Promise<void>((resolve) => {
      port2.once('message', (data: CoreResult[]) => {
        const r = data[0]!;
        expect(r.ok && 'bodyBytes' in r.view && Buffer.from(r.view.bodyBytes).toString()).toBe(
          '"x":[1,2,3]',
        );
        port1.close();
        port2.close();
        resolve();
      });
      port1.postMessage(results, [buffer]);
      // Moved, not copied.
      expect(buffer.byteLength).toBe(0);
    });
  });
});
