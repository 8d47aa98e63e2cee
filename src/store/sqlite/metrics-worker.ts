import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { systemClock } from '../../platform/clock.js';
import { EngineRunner, type EngineRequest } from './engine-runner.js';
import { MetricsEngine } from './metrics-engine.js';

/**
 * Writer thread: owns the second SQLite connection and does every metrics write, so commits
 * (and their fsync) never block the HTTP thread. Messages: {id, req} in, {id, ok, value} out.
 */
const port = parentPort;
if (!port) throw new Error('metrics-worker must run as a worker thread');

const { path } = workerData as { path: string };
const db = new BetterSqlite3(path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
const runner = new EngineRunner(new MetricsEngine(db, () => systemClock.now()));

port.on('message', (msg: { id: number; req: EngineRequest } | { id: number; close: true }) => {
  if ('close' in msg) {
    db.close();
    port.postMessage({ id: msg.id, ok: true, value: null });
    port.close();
    return;
  }
  runner.handle(msg.req).then(
    (value) => port.postMessage({ id: msg.id, ok: true, value }),
    (err: unknown) =>
      port.postMessage({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      }),
  );
});
