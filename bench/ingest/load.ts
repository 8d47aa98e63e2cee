/**
 * Load generator (child process). Simulated nodes post realistic reports over loopback:
 * - open: a fixed rate regardless of answers; latency counts from the scheduled send time, so
 *   queueing shows up instead of being hidden (no coordinated omission);
 * - closed: `connections` clients each send the next report as soon as the last is answered
 *   (saturation);
 * - once: every node sends one report (warm-up), as fast as the server takes them.
 */
import { gzipSync } from 'node:zlib';
import { agentReport } from '../../test/support/agent-payloads.js';
import { Connection, requestHead } from './http-client.js';

export interface LoadCommand {
  /**
   * The servers: with several, connections are opened round-robin across them and, in the open
   * loop, each request goes to the next server in turn (a load balancer without sticky
   * sessions: a node's reports land on any of them).
   */
  ports: number[];
  path: string;
  secrets: string[];
  mode: 'open' | 'closed' | 'once';
  rate?: number;
  seconds?: number;
  connections: number;
  /** Send every body gzip-encoded (Content-Encoding: gzip), as agents do once Dash lists gzip. */
  gzip?: boolean;
}

export interface LoadResult {
  sent: number;
  ok: number;
  errors: Record<string, number>;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** p99 latency of the reports scheduled in each second of the run, in order. */
  p99BySecond: number[];
  /**
   * Reports answered 200 by each server, in `ports` order: a request takes the next server in
   * turn that has a free connection, so when one server's connections are all busy the other
   * gets more than its share.
   */
  okByServer: number[];
}

const VARIANTS = 32;
/** Longer than Dash's own 5 s persistence budget, so only a lost answer trips it. */
const STALL_MS = 30_000;
const plainBodies = Array.from({ length: VARIANTS }, (_, seq) =>
  Buffer.from(JSON.stringify(agentReport({ seq }))),
);
const gzipBodies = plainBodies.map((b) => gzipSync(b));

async function run(cmd: LoadCommand): Promise<LoadResult> {
  const bodies = cmd.gzip ? gzipBodies : plainBodies;
  const heads = cmd.secrets.map((s) =>
    bodies.map((b) => requestHead(cmd.path, s, b.length, cmd.gzip)),
  );
  const conns = await Promise.all(
    Array.from({ length: cmd.connections }, (_, i) =>
      Connection.open(cmd.ports[i % cmd.ports.length]!),
    ),
  );
  const latencies: number[] = [];
  const bySecond: number[][] = [];
  const errors: Record<string, number> = {};
  let sent = 0;
  let ok = 0;
  const okByServer = cmd.ports.map(() => 0);
  let next = 0;
  const pick = () => {
    const i = next++;
    const node = i % cmd.secrets.length;
    const variant = Math.floor(i / cmd.secrets.length) % VARIANTS;
    return { head: heads[node]![variant]!, body: bodies[variant]! };
  };
  const record = (status: number, scheduled: number, port: number) => {
    const latency = performance.now() - scheduled;
    latencies.push(latency);
    (bySecond[Math.floor((scheduled - start) / 1000)] ??= []).push(latency);
    if (status === 200) {
      ok++;
      okByServer[cmd.ports.indexOf(port)]!++;
    } else errors[status] = (errors[status] ?? 0) + 1;
  };
  const fail = (err: Error) => {
    errors[err.message] = (errors[err.message] ?? 0) + 1;
  };
  const start = performance.now();

  if (cmd.mode === 'closed' || cmd.mode === 'once') {
    const total = cmd.mode === 'once' ? cmd.secrets.length : Infinity;
    const until = start + (cmd.seconds ?? 0) * 1000;
    await Promise.all(
      conns.map(async (first) => {
        let c = first;
        while (sent < total && (cmd.mode === 'once' || performance.now() < until)) {
          const { head, body } = pick();
          sent++;
          const t0 = performance.now();
          try {
            record(await c.send(head, body), t0, c.port);
          } catch (err) {
            fail(err as Error);
            // Carry on with a new connection; a server that refuses them ends this client.
            try {
              c = await Connection.open(c.port);
              conns.push(c);
            } catch (openErr) {
              fail(openErr as Error);
              return;
            }
          }
        }
      }),
    );
  } else {
    const rate = cmd.rate ?? 1000;
    const total = Math.round(rate * (cmd.seconds ?? 10));
    const queue: number[] = [];
    // Free connections by server; requests take the servers in turn.
    const free = new Map<number, Connection[]>(cmd.ports.map((p) => [p, []]));
    for (const c of conns) free.get(c.port)!.push(c);
    const freeCount = () => [...free.values()].reduce((n, l) => n + l.length, 0);
    let turn = 0;
    const take = (): Connection | undefined => {
      for (let k = 0; k < cmd.ports.length; k++) {
        const list = free.get(cmd.ports[(turn + k) % cmd.ports.length]!)!;
        if (list.length > 0) {
          turn = (turn + k + 1) % cmd.ports.length;
          return list.pop();
        }
      }
      return undefined;
    };
    let inFlight = 0;
    let opening = 0;
    // A connection the server closed (idle keep-alive timeout, error) is replaced, so the pool
    // keeps its size; its request, if any, counts as an error.
    const replace = (port: number) => {
      opening++;
      Connection.open(port).then(
        (c) => {
          opening--;
          conns.push(c);
          free.get(port)!.push(c);
          dispatch();
        },
        (err: Error) => {
          opening--;
          fail(err);
        },
      );
    };
    const dispatch = () => {
      while (queue.length > 0) {
        const c = take();
        if (!c) break;
        if (c.closed) {
          replace(c.port);
          continue;
        }
        const scheduled = queue.shift()!;
        const { head, body } = pick();
        inFlight++;
        c.send(head, body).then(
          (status) => {
            record(status, scheduled, c.port);
            inFlight--;
            free.get(c.port)!.push(c);
            dispatch();
          },
          (err: Error) => {
            fail(err);
            inFlight--;
            replace(c.port);
          },
        );
      }
    };
    let lastDone = 0;
    let lastProgress = performance.now();
    await new Promise<void>((resolve, reject) => {
      const tick = () => {
        // A phase that stops making progress fails loudly instead of waiting forever.
        const done = latencies.length + Object.values(errors).reduce((a, b) => a + b, 0);
        if (done !== lastDone || inFlight + queue.length === 0) {
          lastDone = done;
          lastProgress = performance.now();
        } else if (performance.now() - lastProgress > STALL_MS) {
          reject(
            new Error(
              `no answer for ${STALL_MS / 1000} s: ${inFlight} in flight, ${queue.length} queued, ` +
                `${freeCount()} free and ${opening} opening connections`,
            ),
          );
          return;
        }
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
        while (sent < due) {
          queue.push(start + (sent * 1000) / rate);
          sent++;
        }
        dispatch();
        if (sent >= total && queue.length === 0 && inFlight === 0) resolve();
        else setTimeout(tick, 1);
      };
      tick();
    });
  }
  const seconds = (performance.now() - start) / 1000;
  for (const c of conns) c.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    sent,
    ok,
    errors,
    seconds,
    perSecond: ok / seconds,
    p50: q(0.5),
    p99: q(0.99),
    max: latencies.at(-1) ?? 0,
    okByServer,
    p99BySecond: Array.from(bySecond, (l) => {
      const sorted = (l ?? []).sort((a, b) => a - b);
      return sorted[Math.floor(0.99 * sorted.length)] ?? 0;
    }),
  };
}

process.on('message', (cmd: LoadCommand) => {
  run(cmd).then(
    (result) => process.send?.(result),
    (err: unknown) => process.send?.({ error: String(err) }),
  );
});
