import type { InterfaceView, IoRates, NodeView, RaidView } from '../../protocol/front-view.js';
import type { ReportMetrics } from '../../protocol/node-report.js';
import { effectiveIops } from '../ingest/history-sample.js';
import { temperatureDevices } from '../ingest/physical-disk.js';

/**
 * The part of a node's front view that comes from its latest report alone. It is stored with the
 * current projection (node_current.runtime_json) so the view can be rendered again when the
 * node's name, tags or static facts change, without the report.
 */
export interface RuntimeView {
  receivedAt: number;
  observedAt: number;
  sentAt: string;
  uptimeText: string;
  cpu: { usage: number; l1: number; l5: number; l15: number };
  memory: {
    total: number;
    used: number;
    available: number;
    buffers: number;
    cached: number;
    usedRatio: number;
    swapTotal: number;
    swapUsed: number;
  };
  /** fsType null: not in the report; the static root observation may know it. */
  mounts: Array<{
    label: string;
    fsType: string | null;
    total: number;
    used: number;
    ratio: number;
  }>;
  io: { total: IoRates; by_device?: Record<string, IoRates> };
  temperatureDevices?: string[];
  network: NodeView['network'];
  processes: number;
  tcp: number;
  udp: number;
  raid?: RaidView;
}

const n = (v: number | undefined) => v ?? 0;
const zeroIo = (): IoRates => ({ read_bps: 0, write_bps: 0, read_iops: 0, write_iops: 0, iops: 0 });

function mounts(m: ReportMetrics): RuntimeView['mounts'] {
  const out: RuntimeView['mounts'] = [];
  for (const d of m.disk?.logical ?? []) {
    const label = d.mountpoint?.trim() || d.ref?.trim() || d.name?.trim() || '';
    if (label === '') continue;
    const fsType = d.mountpoints?.[label]?.fs_type?.trim();
    const used = n(d.used);
    out.push({
      label,
      fsType: fsType ? fsType : null,
      total: d.total ? d.total : used + n(d.free),
      used,
      ratio: n(d.used_ratio),
    });
  }
  return out.sort(
    (a, b) => b.total - a.total || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
}

function io(m: ReportMetrics): RuntimeView['io'] {
  const total = zeroIo();
  const byDevice: Record<string, IoRates> = {};
  let any = false;
  for (const d of m.disk?.base_io ?? []) {
    const rates: IoRates = {
      read_bps: n(d.read_rate_bytes_per_sec),
      write_bps: n(d.write_rate_bytes_per_sec),
      read_iops: n(d.read_iops),
      write_iops: n(d.write_iops),
      iops: effectiveIops(d),
    };
    if ((d.role ?? '').trim().toLowerCase() === 'primary') {
      total.read_bps += rates.read_bps;
      total.write_bps += rates.write_bps;
      total.read_iops += rates.read_iops;
      total.write_iops += rates.write_iops;
      total.iops += rates.iops;
    }
    byDevice[d.ref?.trim() || (d.name ?? '').trim()] = rates;
    any = true;
  }
  return any ? { total, by_device: byDevice } : { total };
}

function network(m: ReportMetrics): NodeView['network'] {
  const total = { bytes_recv: 0, bytes_sent: 0, recv_bps: 0, sent_bps: 0 };
  const byInterface: InterfaceView[] = [];
  for (const i of m.network ?? []) {
    const v: InterfaceView = {
      name: (i.name ?? '').trim(),
      bytes_recv: n(i.bytes_recv),
      bytes_sent: n(i.bytes_sent),
      recv_bps: n(i.recv_rate_bytes_per_sec),
      sent_bps: n(i.sent_rate_bytes_per_sec),
    };
    total.bytes_recv += v.bytes_recv;
    total.bytes_sent += v.bytes_sent;
    total.recv_bps += v.recv_bps;
    total.sent_bps += v.sent_bps;
    byInterface.push(v);
  }
  return byInterface.length > 0 ? { total, by_interface: byInterface } : { total };
}

function raid(m: ReportMetrics): RaidView | undefined {
  const r = m.raid;
  const arrays = r?.arrays ?? [];
  if (!r?.supported && !r?.available && arrays.length === 0) return undefined;
  return {
    supported: r?.supported ?? false,
    available: r?.available ?? false,
    arrays: arrays.map((a) => ({
      name: a.name ?? '',
      status: a.status ?? '',
      active: n(a.active),
      working: n(a.working),
      failed: n(a.failed),
      health: a.health ?? '',
      members: (a.members ?? []).map((x) => ({ name: x.name ?? '', state: x.state ?? '' })),
      ...(a.sync_status ? { sync_status: a.sync_status } : {}),
      ...(a.sync_progress ? { sync_progress: a.sync_progress } : {}),
    })),
  };
}

export function runtimeView(
  m: ReportMetrics,
  receivedAt: number,
  reportedAt: number,
  sentAt: string,
): RuntimeView {
  const mem = m.memory ?? {};
  const temps = temperatureDevices(m.disk?.smart?.devices).map((t) => t.name);
  const view: RuntimeView = {
    receivedAt,
    observedAt: reportedAt,
    sentAt,
    uptimeText: m.system?.uptime ?? '',
    cpu: {
      usage: n(m.cpu?.usage_ratio),
      l1: n(m.cpu?.load1),
      l5: n(m.cpu?.load5),
      l15: n(m.cpu?.load15),
    },
    memory: {
      total: n(mem.total),
      used: n(mem.used),
      available: n(mem.available),
      buffers: n(mem.buffers),
      cached: n(mem.cached),
      usedRatio: n(mem.used_ratio),
      swapTotal: n(mem.swap_total),
      swapUsed: n(mem.swap_used),
    },
    mounts: mounts(m),
    io: io(m),
    network: network(m),
    processes: n(m.processes?.process_count),
    tcp: n(m.connections?.tcp_count),
    udp: n(m.connections?.udp_count),
  };
  if (temps.length > 0) view.temperatureDevices = temps;
  const rv = raid(m);
  if (rv) view.raid = rv;
  return view;
}
