import { connect, type Socket } from 'node:net';
import { request, Agent } from 'node:http';

/**
 * Misbehaving HTTP clients for reliability tests and the slow-clients soak. Each kind comes
 * from its own loopback address (127.0.0.0/8 is all local on Linux), so the per-address
 * connection cap applies to it and not to the well-behaved client measured alongside.
 */
export interface Hostiles {
  sockets: Socket[];
  /** Completed dashboard polls and failed ones (refused by the cap, reset...). */
  polls: { ok: number; failed: number };
  stop(): void;
}

function open(port: number, localAddress: string): Socket {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  socket.on('error', () => {});
  return socket;
}

export interface HostileOptions {
  port: number;
  idle: number;
  slowloris: number;
  pipeliners: number;
  /** Requests each pipeliner writes at once, never reading an answer. */
  pipelined: number;
  /** Dashboard polls kept in flight at all times, spread over `pollAddresses` addresses. */
  polls: number;
  pollAddresses: number;
  pollPath?: string;
}

export function startHostiles(o: HostileOptions): Hostiles {
  const sockets: Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  // Idle: connect, send nothing.
  for (let i = 0; i < o.idle; i++) sockets.push(open(o.port, '127.0.0.2'));
  // Slowloris: a header byte every 200 ms, never finishing.
  const partial = 'GET /api/front/metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(10_000);
  for (let i = 0; i < o.slowloris; i++) {
    const s = open(o.port, '127.0.0.3');
    let at = 0;
    const timer = setInterval(() => {
      if (s.destroyed || at >= partial.length) return;
      s.write(partial[at++]!);
    }, 200);
    timers.push(timer);
    sockets.push(s);
  }
  // Pipelining, never reading: the answers pile up unread.
  const many = `GET ${o.pollPath ?? '/api/front/metrics'} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(
    o.pipelined,
  );
  for (let i = 0; i < o.pipeliners; i++) {
    const s = open(o.port, '127.0.0.4');
    s.pause();
    s.once('connect', () => s.write(many));
    sockets.push(s);
  }
  // Dashboard polls: `polls` requests always in flight, each agent on its own address.
  const polls = { ok: 0, failed: 0 };
  const agents = Array.from(
    { length: o.pollAddresses },
    (_, i) =>
      new Agent({
        keepAlive: true,
        maxSockets: Math.ceil(o.polls / o.pollAddresses),
        localAddress: `127.0.1.${i + 1}`,
      }),
  );
  const poll = (n: number) => {
    if (stopped) return;
    const req = request(
      {
        host: '127.0.0.1',
        port: o.port,
        path: o.pollPath ?? '/api/front/metrics',
        agent: agents[n % agents.length],
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) polls.ok++;
          else polls.failed++;
          poll(n);
        });
      },
    );
    req.on('error', () => {
      polls.failed++;
      setTimeout(() => poll(n), 10);
    });
    req.end();
  };
  for (let i = 0; i < o.polls; i++) poll(i);
  return {
    sockets,
    polls,
    stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      for (const a of agents) a.destroy();
    },
  };
}

/** Latencies (ms) of `count` sequential GETs on one fresh keep-alive connection. */
export async function latencies(port: number, path: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
        req.on('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`GET ${path}: ${status}`);
      out.push(performance.now() - start);
    }
  } finally {
    agent.destroy();
  }
  return out;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
