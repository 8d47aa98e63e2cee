import { afterEach, describe, expect, it } from 'vitest';
import { Collector, type StaticSnapshot } from '../../../src/agent/collect/collector.js';
import type { Metrics } from '../../../src/agent/payload.js';
import {
  Pusher,
  staticCheckEveryMs,
  type PusherOptions,
  type Sampler,
} from '../../../src/agent/push/pusher.js';
import type { ManifestOffer } from '../../../src/agent/update/manifest.js';
import type { TargetConfig } from '../../../src/agent/push/target.js';
import { anyStatfs, FakeAgentClock, fixturePaths, MemoryLog } from '../support/agent-fakes.js';
import { nodeReportViolations, staticViolations } from '../support/payload-rules.js';
import { acceptAll, StubDash } from '../support/stub-dash.js';

/** Real collectors over a recorded tree, with a Static snapshot the test can change. */
class FixtureSampler implements Sampler {
  private readonly collector: Collector;
  complete: boolean | undefined;
  hostnameOverride: string | undefined;
  failSampling = false;

  constructor(clock: FakeAgentClock) {
    this.collector = new Collector({
      paths: fixturePaths('debian10-4.19'),
      clock,
      statfs: anyStatfs,
      arch: 'x86_64',
    });
  }
  prime(): void {
    this.collector.prime();
  }
  async sample(): Promise<Metrics> {
    if (this.failSampling) throw new Error('procfs unreadable');
    return this.collector.sample();
  }
  async staticInfo(): Promise<StaticSnapshot> {
    const snap = await this.collector.staticInfo();
    if (this.hostnameOverride) snap.body.system.hostname = this.hostnameOverride;
    return { ...snap, complete: this.complete ?? snap.complete };
  }
}

/** Polls a condition the network will make true shortly. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

const stubs: StubDash[] = [];
async function stub(): Promise<StubDash> {
  const s = await new StubDash().start();
  stubs.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
});

function setup(targets: TargetConfig[], extra: Partial<PusherOptions> = {}) {
  const clock = new FakeAgentClock();
  const log = new MemoryLog();
  const sampler = new FixtureSampler(clock);
  const offers: ManifestOffer<TargetConfig>[][] = [];
  const pusher = new Pusher({
    targets,
    intervalMs: 3000,
    requireHttps: false,
    clock,
    log,
    sampler,
    version: '0.3.0',
    onManifests: async (o) => offers.push(o),
    ...extra,
  });
  /** One cycle, 3 s after the previous one. */
  const round = async () => {
    clock.advance(3000);
    await pusher.round();
  };
  return { clock, log, sampler, pusher, offers, round };
}

describe('push loop', () => {
  it('sends Static at start, then one report per cycle to every target', async () => {
    const a = await stub();
    const b = await stub();
    const { pusher, round } = setup([
      { url: a.url(), key: 'secret-a' },
      { url: b.url(), key: 'secret-b' },
    ]);
    await pusher.start();
    await round();
    await round();
    for (const [s, secret] of [
      [a, 'secret-a'],
      [b, 'secret-b'],
    ] as const) {
      expect(s.paths()).toEqual(['/api/node/static', '/api/node/metrics', '/api/node/metrics']);
      for (const r of s.received) {
        expect(r.method).toBe('POST');
        expect(r.secret).toBe(secret);
        expect(r.contentType).toBe('application/json');
      }
      expect(staticViolations(s.received[0]!.json)).toEqual([]);
      expect(nodeReportViolations(s.received[1]!.json)).toEqual([]);
      expect(s.received[1]!.json).toMatchObject({ version: '0.3.0', hostname: 'storage-02' });
    }
    const first = a.received[1]!.json as { timestamp: string };
    const second = a.received[2]!.json as { timestamp: string };
    expect(Date.parse(second.timestamp) - Date.parse(first.timestamp)).toBe(3000);
  });

  it('keeps a failing target from affecting the others and logs its failure once', async () => {
    const bad = await stub();
    const good = await stub();
    bad.responder = (req, res) =>
      req.path.endsWith('/metrics') ? res.writeHead(500).end() : acceptAll(req, res);
    const { pusher, round, log } = setup([
      { url: bad.url(), key: 'k1' },
      { url: good.url(), key: 'k2' },
    ]);
    await pusher.start();
    for (let i = 0; i < 4; i++) await round();
    expect(good.count('/metrics')).toBe(4);
    expect(bad.count('/metrics')).toBe(4);
    expect(log.count('warn', 'report failed (HTTP 500)')).toBe(1);
    expect(log.count('debug', 'failed again')).toBe(3);

    // Recovery: the report is accepted again and Static is re-sent right after it.
    bad.responder = acceptAll;
    const before = bad.received.length;
    await round();
    expect(bad.paths().slice(before)).toEqual(['/api/node/metrics', '/api/node/static']);
    expect(log.count('info', 'reporting again')).toBe(1);
    await round();
    expect(bad.paths().slice(before + 2)).toEqual(['/api/node/metrics']);
  });

  it('counts only 200 as success', async () => {
    const s = await stub();
    s.responder = (req, res) =>
      req.path.endsWith('/metrics') ? res.writeHead(204).end() : acceptAll(req, res);
    const { pusher, round, log } = setup([{ url: s.url(), key: 'k' }]);
    await pusher.start();
    await round();
    expect(log.count('warn', 'report failed (HTTP 204)')).toBe(1);
    s.responder = acceptAll;
    await round();
    expect(s.paths().slice(-2)).toEqual(['/api/node/metrics', '/api/node/static']);
  });

  it('does not wait for a target that hangs: it skips cycles while its request is open', async () => {
    const slow = await stub();
    const fast = await stub();
    const held: (() => void)[] = [];
    slow.responder = (req, res) => {
      if (req.path.endsWith('/metrics')) held.push(() => acceptAll(req, res));
      else acceptAll(req, res);
    };
    const { pusher, clock } = setup([
      { url: slow.url(), key: 'k1' },
      { url: fast.url(), key: 'k2' },
    ]);
    await pusher.start();
    clock.advance(3000);
    const stuck = pusher.round();
    await until(() => fast.count('/metrics') === 1 && held.length === 1);
    for (let i = 0; i < 3; i++) {
      clock.advance(3000);
      await pusher.round();
    }
    expect(fast.count('/metrics')).toBe(4);
    expect(slow.count('/metrics')).toBe(1);
    slow.responder = acceptAll;
    held.forEach((release) => release());
    await stuck;
    clock.advance(3000);
    await pusher.round();
    expect(slow.count('/metrics')).toBe(2);
  });

  it('retries incomplete Static every 10 s and stops once it is complete', async () => {
    const s = await stub();
    const { pusher, round, sampler } = setup([{ url: s.url(), key: 'k' }]);
    sampler.complete = false;
    await pusher.start();
    await round(); // +3 s
    await round(); // +6 s
    await round(); // +9 s
    expect(s.count('/static')).toBe(1);
    await round(); // +12 s: due again
    expect(s.count('/static')).toBe(2);
    sampler.complete = true;
    for (let i = 0; i < 4; i++) await round(); // +24 s: re-collected complete, sent once more
    expect(s.count('/static')).toBe(3);
    for (let i = 0; i < 8; i++) await round(); // +48 s
    expect(s.count('/static')).toBe(3);
  });

  it('re-sends Static when it changes, checking every 20 intervals (10–60 s)', async () => {
    expect(staticCheckEveryMs(100)).toBe(10_000);
    expect(staticCheckEveryMs(1000)).toBe(20_000);
    expect(staticCheckEveryMs(3000)).toBe(60_000);
    expect(staticCheckEveryMs(10_000)).toBe(60_000);
    const s = await stub();
    const { pusher, round, sampler } = setup([{ url: s.url(), key: 'k' }]);
    await pusher.start();
    for (let i = 0; i < 20; i++) await round(); // +60 s: checked, unchanged
    expect(s.count('/static')).toBe(1);
    sampler.hostnameOverride = 'renamed-host';
    for (let i = 0; i < 19; i++) await round(); // +117 s: not checked yet
    expect(s.count('/static')).toBe(1);
    await round(); // +120 s
    expect(s.count('/static')).toBe(2);
    const last = s.received.filter((r) => r.path.endsWith('/static')).at(-1)!;
    expect(last.json).toMatchObject({ system: { hostname: 'renamed-host' } });
  });

  it('refuses plain-HTTP targets under --require-https', async () => {
    const s = await stub();
    const { pusher, log } = setup(
      [
        { url: s.url(), key: 'k' },
        { url: 'https://dash.invalid/api/node/metrics', key: 'k' },
      ],
      { requireHttps: true },
    );
    expect(pusher.targetCount).toBe(1);
    expect(log.count('error', 'is not HTTPS and --require-https is set')).toBe(1);
  });

  it('falls back from HTTPS to HTTP when TLS fails, but not under --require-https', async () => {
    const s = await stub();
    const httpsUrl = s.url('/api/node/metrics', 'https');
    const lenient = setup([{ url: httpsUrl, key: 'k' }]);
    await lenient.pusher.start();
    await lenient.round();
    expect(s.paths()).toEqual(['/api/node/static', '/api/node/metrics']);
    expect(lenient.log.count('warn', 'HTTPS failed')).toBe(1);

    const strict = setup([{ url: httpsUrl, key: 'k' }], { requireHttps: true });
    await strict.pusher.start();
    await strict.round();
    expect(s.received).toHaveLength(2);
    expect(strict.log.count('warn', 'metrics: report failed')).toBe(1);
  });

  it('hands update manifests on, reading only JSON bodies of 200 responses', async () => {
    const json = await stub();
    const text = await stub();
    const manifest = {
      id: '0.4.0',
      version: '0.4.0',
      url: 'http://127.0.0.1/deploy/linux/node_linux_amd64',
      sha256: 'a'.repeat(64),
      size: 10,
    };
    json.responder = (req, res) =>
      req.path.endsWith('/metrics')
        ? res
            .writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
            .end(JSON.stringify({ update: manifest, extra: true }))
        : acceptAll(req, res);
    text.responder = (req, res) =>
      req.path.endsWith('/metrics')
        ? res
            .writeHead(200, { 'Content-Type': 'text/plain' })
            .end(JSON.stringify({ ok: true, update: manifest }))
        : acceptAll(req, res);
    const { pusher, round, offers } = setup([
      { url: json.url(), key: 'k1' },
      { url: text.url(), key: 'k2' },
    ]);
    await pusher.start();
    await round();
    expect(offers).toHaveLength(1);
    expect(offers[0]).toEqual([{ raw: manifest, from: { url: json.url(), key: 'k1' } }]);
  });

  it('skips the report of a cycle whose sampling failed, and carries on', async () => {
    const s = await stub();
    const { pusher, round, sampler, log } = setup([{ url: s.url(), key: 'k' }]);
    await pusher.start();
    sampler.failSampling = true;
    await round();
    await round();
    expect(s.count('/metrics')).toBe(0);
    expect(log.count('error', 'sampling failed: procfs unreadable')).toBe(1);
    expect(log.count('debug', 'sampling failed: procfs unreadable')).toBe(1);
    sampler.failSampling = false;
    await round();
    expect(s.count('/metrics')).toBe(1);
  });
});
