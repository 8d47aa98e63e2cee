/** Front view and history shapes of the stand-in backend (reference §4.1, §4.5). */

import type { FastifyReply, FastifyRequest } from 'fastify';

export type Json = Record<string, unknown>;
export type Report = { metrics: Json; received: string; hostname: string };
export interface Node {
  id: number;
  name: string;
  secret: string;
  tags: string[];
  guest: boolean;
  groups: number[];
  order: number;
  cycle: Json;
  direction: string;
  p95: boolean;
  static?: Json;
  report?: Report;
}

export const STALE_AFTER_SEC = 17;
export const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.map((x) => x as Json) : []);
export const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

export function projectView(n: Node): Json | null {
  const r = n.report;
  if (!r) return null;
  const m = r.metrics;
  const cpu = m.cpu as Json;
  const mem = m.memory as Json;
  const disk = m.disk as Json;
  const st = n.static ?? {};
  const sys = (st.system ?? {}) as Json;
  const info = ((st.cpu as Json | undefined)?.info ?? {}) as Json;
  const stMem = (st.memory ?? {}) as Json;
  const nets = arr(m.network);
  const base = arr(disk.base_io);
  const io = (e: Json) => ({
    read_bps: num(e.read_rate_bytes_per_sec),
    write_bps: num(e.write_rate_bytes_per_sec),
    read_iops: num(e.read_iops),
    write_iops: num(e.write_iops),
    iops: num(e.iops),
  });
  const total = base
    .filter((e) => e.role === 'primary')
    .map(io)
    .reduce(
      (a, b) => ({
        read_bps: a.read_bps + b.read_bps,
        write_bps: a.write_bps + b.write_bps,
        read_iops: a.read_iops + b.read_iops,
        write_iops: a.write_iops + b.write_iops,
        iops: a.iops + b.iops,
      }),
      { read_bps: 0, write_bps: 0, read_iops: 0, write_iops: 0, iops: 0 },
    );
  const smart = disk.smart as Json | undefined;
  const view: Json = {
    node: {
      id: String(n.id),
      ...(n.order ? { order: n.order } : {}),
      title: n.name,
      search_text: [n.name, str(sys.os), str(sys.platform), ...n.tags].filter(Boolean),
      ...(n.tags.length ? { tags: n.tags } : {}),
    },
    observation: {
      received_at: r.received,
      observed_at: r.received,
      sent_at: r.received,
      stale_after_sec: STALE_AFTER_SEC,
    },
    system: {
      os_family: 'linux',
      platform: str(sys.platform),
      platform_version: str(sys.platform_version),
      kernel_version: str(sys.kernel_version),
      arch: str(sys.arch),
      uptime_text: str((m.system as Json).uptime),
    },
    cpu: {
      usage_ratio: num(cpu.usage_ratio),
      load: { l1: num(cpu.load1), l5: num(cpu.load5), l15: num(cpu.load15) },
      model_name: info.model_name,
      cores_physical: info.cores_physical,
      cores_logical: info.cores_logical,
      sockets: num(info.sockets) || 1,
    },
    memory: {
      total_bytes: num(stMem.total),
      used_bytes: num(mem.used),
      available_bytes: num(mem.available),
      buffers_bytes: num(mem.buffers),
      cached_bytes: num(mem.cached),
      used_ratio: num(mem.used_ratio),
      swap_total_bytes: num(stMem.swap_total),
      swap_used_bytes: num(mem.swap_used),
    },
    disk: {
      mounts: arr(disk.logical).map((l) => ({
        mountpoint: String(l.mountpoint ?? l.ref ?? l.name),
        fs_type: 'ext4',
        total_bytes: num(l.total) || num(l.used) + num(l.free),
        used_bytes: num(l.used),
        used_ratio: num(l.used_ratio),
      })),
      io: {
        total,
        by_device: Object.fromEntries(base.map((e) => [String(e.ref ?? e.name), io(e)])),
      },
      ...(smart
        ? {
            smart,
            temperature_devices: arr(smart.devices).map((d) => String(d.name)),
          }
        : {}),
    },
    network: {
      total: {
        bytes_recv: nets.reduce((a, x) => a + num(x.bytes_recv), 0),
        bytes_sent: nets.reduce((a, x) => a + num(x.bytes_sent), 0),
        recv_bps: nets.reduce((a, x) => a + num(x.recv_rate_bytes_per_sec), 0),
        sent_bps: nets.reduce((a, x) => a + num(x.sent_rate_bytes_per_sec), 0),
      },
      by_interface: nets.map((x) => ({
        name: x.name,
        bytes_recv: num(x.bytes_recv),
        bytes_sent: num(x.bytes_sent),
        recv_bps: num(x.recv_rate_bytes_per_sec),
        sent_bps: num(x.sent_rate_bytes_per_sec),
      })),
    },
    processes: { count: num((m.processes as Json).process_count) },
    connections: {
      tcp: num((m.connections as Json).tcp_count),
      udp: num((m.connections as Json).udp_count),
    },
  };
  const raid = m.raid as Json;
  if (raid.supported || raid.available || arr(raid.arrays).length) view.raid = raid;
  if (m.thermal) view.thermal = m.thermal;
  if (m.pressure) view.pressure = m.pressure;
  return view;
}

const RANGE_SEC: Record<string, [number, number]> = {
  '30m': [1800, 3],
  '1h': [3600, 6],
  '12h': [43_200, 60],
  '24h': [86_400, 120],
  '1w': [604_800, 900],
  '15d': [1_296_000, 1800],
  '30d': [2_592_000, 3600],
};

export function syntheticHistory(q: Json) {
  const [span, step] = RANGE_SEC[str(q.range)] ?? [3600, 6];
  const now = Math.floor(Date.now() / 1000 / step) * step;
  // Every bucket of the newest part of the window holds data, as a node reporting all along.
  const count = Math.min(300, Math.floor(span / step));
  const metric = str(q.metric);
  // Each metric gets its own phase so series sharing a chart stay apart.
  const phase = [...metric].reduce((a, c) => a + c.charCodeAt(0), 0) % 7;
  const scale = metric.includes('ratio')
    ? 1
    : metric.includes('bps')
      ? 1e6
      : metric.includes('used')
        ? 4e10
        : 50;
  const points = Array.from({ length: count }, (_, i) => {
    const ts = now - (count - 1 - i) * step;
    const value = scale * (0.4 + 0.25 * Math.sin(i / 9 + phase) + 0.05 * Math.sin(i * 1.7));
    return { ts: new Date(ts * 1000).toISOString(), value };
  });
  return {
    server_id: Number(q.server_id),
    metric,
    range: q.range,
    agg: 'avg',
    step_sec: step,
    points,
  };
}

export function cookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k) out[k] = v.join('=');
  }
  return out;
}

export function fail(reply: FastifyReply, status: number, code: string, message = code) {
  return reply.code(status).header('cache-control', 'no-store').send({ code, message });
}
