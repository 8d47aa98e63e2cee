/**
 * Load generator process for bench/reads: keeps `conns` keep-alive connections busy with one
 * GET each for `seconds`, then prints {requests, errors, seconds} as JSON.
 * Args: port path seconds conns [header:value ...]
 */
import { Connection } from '../ingest/http-client.js';

const [portArg, path, secondsArg, connsArg, ...headerArgs] = process.argv.slice(2);
const port = Number(portArg);
const seconds = Number(secondsArg);
const conns = Number(connsArg);
const extra = headerArgs.map((h) => `${h}\r\n`).join('');
const head = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`, 'latin1');
const empty = Buffer.alloc(0);

let requests = 0;
let errors = 0;
const start = process.hrtime.bigint();
const deadline = Date.now() + seconds * 1000;

async function loop(c: Connection): Promise<void> {
  while (Date.now() < deadline) {
    const status = await c.send(head, empty);
    if (status === 200) requests++;
    else errors++;
  }
  c.close();
}

const connections = await Promise.all(Array.from({ length: conns }, () => Connection.open(port)));
await Promise.all(connections.map(loop));
const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
process.stdout.write(JSON.stringify({ requests, errors, seconds: elapsed }) + '\n');
