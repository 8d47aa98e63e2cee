import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { NodesService } from '../../../src/domain/nodes/service.js';
import { NodeSecretIndex } from '../../../src/domain/nodes/secret-index.js';
import { NodeEvents } from '../../../src/domain/nodes/node-events.js';
import { DataKey } from '../../../src/platform/data-key.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/open.js';
import type { AppError } from '../../../src/errors/app-error.js';
import { FakeClock } from '../../support/fake-clock.js';

let store: SqliteStore;
let lines: Array<{ level: number; msg: string; nodeId?: number }>;

function service(generateSecret: (n: number) => string) {
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) },
  );
  return new NodesService({
    nodes: store.nodes,
    secrets: new NodeSecretIndex(),
    events: new NodeEvents(),
    sealer: DataKey.ephemeral(),
    clock: new FakeClock(),
    log,
    appTimezone: 'UTC',
    generateSecret,
  });
}

async function codeOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return (err as AppError).code;
  }
  return undefined;
}

beforeEach(() => {
  store = openSqliteStore(':memory:', 0);
  lines = [];
});
afterEach(async () => store.close());

describe('nodes service', () => {
  it('logs a warning when stored tags are dropped on read', async () => {
    const s = service(() => 'secret-one-12345');
    const id = await s.create();
    store.raw.prepare('UPDATE nodes SET tags = ? WHERE id = ?').run('not json', id);
    expect((await s.list())[0]?.tags).toEqual([]);
    const warning = lines.find((l) => l.level === 40 && l.nodeId === id);
    expect(warning?.msg).toContain('tags');
  });

  it('retries secret collisions, then gives up with secret_collision_exhausted', async () => {
    let calls = 0;
    const s = service(() => {
      calls++;
      return 'always-the-same';
    });
    await s.create();
    calls = 0;
    expect(await codeOf(s.create())).toBe('secret_collision_exhausted');
    expect(calls).toBe(5);
    expect(await s.list()).toHaveLength(1);
  });

  it('answers secret_generation_failed when no secret can be generated', async () => {
    const s = service(() => {
      throw new Error('no entropy');
    });
    expect(await codeOf(s.create())).toBe('secret_generation_failed');
  });

  it('validates a whole patch before touching the store', async () => {
    const s = service(() => 'secret-one-12345');
    const id = await s.create();
    expect(await codeOf(s.update(id, { name: 'fine', tags: 'nope' }))).toBe('invalid_tags');
    expect((await s.list())[0]?.name).toBe('Untitled');
  });
});
