/**
 * Child of the open-log SIGKILL test: appends batches of samples with a group fsync (as the
 * ingest thread will) and prints each node's acknowledged count once its batch's fdatasync
 * has ended, until it is killed.
 */
import { encodeSample } from '../../src/store/history-blocks/open-log-record.js';
import { OpenLogFile } from '../../src/store/sqlite/open-log.js';

const path = process.argv[2]!;
const start = Number(process.argv[3]);
const log = OpenLogFile.open(path, { shard: 0, from: 0 });
let next = start;
let pending: number[] = [];
let syncing = false;

function syncRound(): void {
  if (syncing || pending.length === 0) return;
  const acked = pending;
  pending = [];
  syncing = true;
  log.sync((err) => {
    syncing = false;
    if (err) throw err;
    process.stdout.write(`${acked.join(',')}\n`);
    syncRound();
  });
}

setInterval(() => {
  const batch: Buffer[] = [];
  const n = 1 + (next % 17);
  for (let i = 0; i < n; i++) {
    const marker = next++;
    batch.push(
      encodeSample({
        node: marker % 50,
        at: marker,
        host: [marker, null, marker * 3],
        devices: new Uint8Array(marker % 40),
      }),
    );
    pending.push(marker);
  }
  log.append(batch);
  syncRound();
}, 1);
