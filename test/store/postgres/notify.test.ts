import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PgBus } from '../../../src/store/postgres/notify.js';
import type { PostgresStore } from '../../../src/store/postgres/open.js';
import { openSharedPostgres, POSTGRES_AVAILABLE } from '../engines.js';
import { POSTGRES_TEST_URL } from '../../support/postgres.js';

const until = async (check: () => boolean, ms = 10_000) => {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.skipIf(!POSTGRES_AVAILABLE)('PgBus (LISTEN/NOTIFY between instances)', () => {
  let store: PostgresStore;
  let buses: PgBus[];
  // Channels are database-wide: a random one per test keeps parallel test files apart.
  let channel: string;
  beforeEach(async () => {
    store = await openSharedPostgres();
    buses = [];
    channel = `dash_t_${randomBytes(4).toString('hex')}`;
  });
  afterEach(async () => {
    for (const b of buses) await b.close();
    await store.close();
  });
  const bus = (opts?: ConstructorParameters<typeof PgBus>[2]) => {
    const b = new PgBus(POSTGRES_TEST_URL, store.pool, opts);
    buses.push(b);
    return b;
  };

  it('delivers a published payload to every subscriber, only after commit', async () => {
    const got: string[] = [];
    const listener = bus();
    await listener.subscribe(channel, (p) => got.push(`a:${p}`));
    await bus().subscribe(channel, (p) => got.push(`b:${p}`));
    const c = await store.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SELECT pg_notify($1, $2)', [channel, 'rolled back']);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    await bus().publish(channel, '1,2,3');
    await until(() => got.length === 2);
    expect(got.sort()).toEqual(['a:1,2,3', 'b:1,2,3']);
  });

  it('refuses bad channel names and oversized payloads', async () => {
    await expect(bus().publish('no; drop', 'x')).rejects.toThrow(/channel name/);
    await expect(bus().publish(channel, 'x'.repeat(8000))).rejects.toThrow(/payload/);
  });

  it('listens again after its connection dropped and says notifications may be missing', async () => {
    let gaps = 0;
    const got: string[] = [];
    const listener = bus({ reconnectMs: 50, onGap: () => gaps++ });
    await listener.subscribe(channel, (p) => got.push(p));
    await store.pool.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [listener.sessionName],
    );
    await until(() => gaps === 1);
    await bus().publish(channel, 'after');
    await until(() => got.length === 1);
    expect(got).toEqual(['after']);
  });

  it('round trip latency is well under the 1 s freshness target', async () => {
    const listener = bus();
    let received = 0;
    await listener.subscribe(channel, () => received++);
    const publisher = bus();
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      await publisher.publish(channel, String(i));
      await until(() => received === i + 1);
    }
    const perMessage = (performance.now() - started) / 20;
    process.stdout.write(`LISTEN/NOTIFY round trip: ${perMessage.toFixed(1)} ms\n`);
    expect(perMessage).toBeLessThan(500);
  });
});
