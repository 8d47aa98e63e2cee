import type { NodeView } from '../api/front';

/**
 * The value a history metric would get from the node's latest report, read from the front
 * view the page polls anyway: lets an open chart grow by one point per report without
 * fetching its series again. undefined = the front view does not carry this metric (the chart
 * then keeps its fetched points); null = carried but not reported.
 */
export function liveValue(
  view: NodeView,
  metric: string,
  device?: string,
): number | null | undefined {
  switch (metric) {
    case 'cpu.usage_ratio':
      return view.cpu.usage_ratio;
    case 'cpu.load1':
      return view.cpu.load.l1;
    case 'cpu.load5':
      return view.cpu.load.l5;
    case 'cpu.load15':
      return view.cpu.load.l15;
    case 'cpu.temp_c': {
      let max: number | null = null;
      for (const t of view.thermal?.sensors ?? []) {
        if (t.kind === 'cpu' && t.temp_c > 0 && (max === null || t.temp_c > max)) max = t.temp_c;
      }
      return max;
    }
    case 'mem.used':
      return view.memory.used_bytes;
    case 'mem.used_ratio':
      return view.memory.used_ratio;
    case 'proc.count':
      return view.processes.count;
    case 'net.recv_bps':
      return view.network.total.recv_bps;
    case 'net.sent_bps':
      return view.network.total.sent_bps;
    case 'conn.tcp':
      return view.connections.tcp;
    case 'conn.udp':
      return view.connections.udp;
  }
  if (metric.startsWith('disk.') && device !== undefined) {
    const io = view.disk.io.by_device?.[device];
    const mount = view.disk.mounts.find((m) => m.mountpoint === device);
    switch (metric) {
      case 'disk.read_bps':
        return io ? io.read_bps : undefined;
      case 'disk.write_bps':
        return io ? io.write_bps : undefined;
      case 'disk.read_iops':
        return io ? io.read_iops : undefined;
      case 'disk.write_iops':
        return io ? io.write_iops : undefined;
      case 'disk.iops':
        return io ? io.iops : undefined;
      case 'disk.used':
        return mount ? mount.used_bytes : undefined;
      case 'disk.used_ratio':
        return mount ? mount.used_ratio : undefined;
    }
  }
  const psi = /^pressure\.(cpu|memory|io)\.(some|full)_avg(10|60|300)$/.exec(metric);
  if (psi) {
    const [, res, kind, win] = psi as unknown as [
      string,
      'cpu' | 'memory' | 'io',
      'some' | 'full',
      string,
    ];
    const stats = view.pressure?.[res]?.[kind];
    if (!stats) return undefined;
    return win === '10' ? stats.avg10 : win === '60' ? stats.avg60 : stats.avg300;
  }
  return undefined;
}

/** Receive time of the view's report in epoch seconds, or null when it has none. */
export function reportTimeSec(view: NodeView): number | null {
  const at = view.observation.received_at;
  if (!at) return null;
  const t = Date.parse(at);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}
