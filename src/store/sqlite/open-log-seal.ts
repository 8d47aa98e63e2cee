import type BetterSqlite3 from 'better-sqlite3';
import { encodeBlock } from '../history-blocks/block-codec.js';
import { dayAccounting, rowsToBlock, storedDevices, type StoredRow } from './history-blocks.js';
import { watermarks } from './metrics-jobs-state.js';
import type { OpenLogIndex } from './open-log-index.js';
import { UPSERT_NODE_CURRENT_SQL } from './current-sql.js';

/**
 * The seal step of the open-block log (docs/ingest-disk-writes.md): one transaction writes every
 * closed window of one log as blocks, checkpoints each node's newest projection into
 * `node_current`, and records the boundary as the log's sealed watermark. Replay and readers skip
 * log records before that watermark, so a crash between this commit and the log's rotation
 * neither loses nor doubles a point. The commit is synced (synchronous=FULL for this one
 * transaction) because the rotation that follows drops the log's copy.
 */

/**
 * Name of a log's sealed watermark in metrics_jobs. None yet counts as 0, and a new log starts
 * at its watermark, so a log whose header starts later was rotated by a newer seal.
 */
export const sealedWatermark = (shard: number) => `open_log_sealed_${shard}`;

export interface LogSealResult {
  blocks: number;
  points: number;
  projections: number;
}

export function sealOpenLog(
  db: BetterSqlite3.Database,
  index: OpenLogIndex,
  shard: number,
  boundary: number,
  sealMs: number,
): LogSealResult {
  index.refresh();
  const marks = watermarks(db);
  const insert = db.prepare(
    'INSERT INTO metrics_blocks (node_id, t_start, t_end, count, data) VALUES (?, ?, ?, ?, ?)',
  );
  const current = db.prepare(UPSERT_NODE_CURRENT_SQL);
  const account = dayAccounting(db);
  const result: LogSealResult = { blocks: 0, points: 0, projections: 0 };
  const previous = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = FULL');
  try {
    db.transaction(() => {
      const sealedBefore = marks.get(sealedWatermark(shard)) ?? 0;
      for (const node of index.nodeIds()) {
        const windows = new Map<number, StoredRow[]>();
        for (const s of index.samples(node, sealedBefore, boundary)) {
          const window = Math.floor(s.at / sealMs) * sealMs;
          let rows = windows.get(window);
          if (!rows) windows.set(window, (rows = []));
          rows.push({ at: s.at, host: [...s.host], devices: storedDevices(s.devices) });
        }
        for (const rows of windows.values()) {
          const data = encodeBlock(rowsToBlock(rows));
          const tStart = rows[0]!.at;
          insert.run(node, tStart, rows.at(-1)!.at, rows.length, data);
          account(tStart, data.length, rows.length, 1);
          result.blocks++;
          result.points += rows.length;
        }
        const p = index.projection(node);
        if (p) {
          current.run(
            node,
            p.at,
            p.reportedAt,
            p.at,
            p.runtimeJson,
            p.smartJson,
            p.thermalJson,
            p.pressureJson,
          );
          result.projections++;
        }
      }
      marks.set(sealedWatermark(shard), Math.max(sealedBefore, boundary));
    })();
  } finally {
    db.pragma(`synchronous = ${previous}`);
  }
  return result;
}
