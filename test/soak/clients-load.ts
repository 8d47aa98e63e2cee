/**
 * The hostile side of the slow-clients soak, in its own process so its work does not slow
 * the measuring client. Args: port, seconds. Prints one JSON line with what it did.
 */
import { startHostiles } from '../support/hostile-clients.js';

const port = Number(process.argv[2]);
const seconds = Number(process.argv[3] ?? 20);
const hostiles = startHostiles({
  port,
  idle: Number(process.env.SOAK_IDLE ?? 500),
  slowloris: Number(process.env.SOAK_SLOWLORIS ?? 200),
  pipeliners: Number(process.env.SOAK_PIPELINERS ?? 20),
  pipelined: 1000,
  polls: Number(process.env.SOAK_POLLS ?? 2000),
  pollAddresses: 10,
});
await new Promise((r) => setTimeout(r, seconds * 1000));
hostiles.stop();
console.log(JSON.stringify({ polls: hostiles.polls, sockets: hostiles.sockets.length }));
process.exit(0);
