import type { MetricsDeviceSample } from '../../store/ports.js';
import type { ReportMetrics, ReportPressureStats } from '../../protocol/node-report.js';
import { temperatureDevices, validTemp } from './physical-disk.js';

/** What one accepted report adds to history. `host` follows HOST_METRICS; null = not reported. */
export interface HistorySample {
  host: Array<number | null>;
  devices: MetricsDeviceSample[];
}

const n = (v: number | undefined) => v ?? 0;

/** Disk IOPS fall back to read + write when the agent leaves the total at zero. */
export function effectiveIops(d: { iops?: number; read_iops?: number; write_iops?: number }) {
  return d.iops ? d.iops : n(d.read_iops) + n(d.write_iops);
}

function psi(stats: ReportPressureStats | null | undefined): Array<number | null> {
  return stats ? [n(stats.avg10), n(stats.avg60), n(stats.avg300)] : [null, null, null];
}

/** Hottest valid CPU sensor, or null. */
export function cpuTemperature(m: ReportMetrics): number | null {
  let max: number | null = null;
  for (const s of m.thermal?.sensors ?? []) {
    if ((s.kind ?? '').trim().toLowerCase() !== 'cpu' || !validTemp(s.temp_c)) continue;
    if (max === null || s.temp_c > max) max = s.temp_c;
  }
  return max;
}

/** Builds the history sample of a validated report (reference §1.5 step 2). */
export function historySample(m: ReportMetrics): HistorySample {
  const network = m.network ?? [];
  let recv = 0;
  let sent = 0;
  const devices: MetricsDeviceSample[] = [];
  for (const i of network) {
    recv += n(i.recv_rate_bytes_per_sec);
    sent += n(i.sent_rate_bytes_per_sec);
    devices.push({
      kind: 'iface',
      name: (i.name ?? '').trim(),
      ref: '',
      alt: '',
      values: [
        n(i.bytes_recv),
        n(i.bytes_sent),
        n(i.recv_rate_bytes_per_sec),
        n(i.sent_rate_bytes_per_sec),
      ],
    });
  }
  for (const d of m.disk?.base_io ?? []) {
    const name = (d.name ?? '').trim();
    devices.push({
      kind: 'io',
      name,
      ref: d.ref?.trim() || name,
      alt: '',
      values: [
        n(d.read_rate_bytes_per_sec),
        n(d.write_rate_bytes_per_sec),
        n(d.read_iops),
        n(d.write_iops),
        effectiveIops(d),
      ],
    });
  }
  for (const d of m.disk?.logical ?? []) {
    devices.push({
      kind: 'usage',
      name: (d.name ?? '').trim(),
      ref: d.ref?.trim() ?? '',
      alt: d.mountpoint?.trim() ?? '',
      values: [n(d.used), n(d.used_ratio)],
    });
  }
  for (const t of temperatureDevices(m.disk?.smart?.devices)) {
    devices.push({
      kind: 'temp',
      name: t.name,
      ref: t.device.ref?.trim() ?? '',
      alt: t.device.device_path?.trim() ?? '',
      values: [t.tempC],
    });
  }
  const p = m.pressure;
  const host = [
    n(m.cpu?.usage_ratio),
    n(m.cpu?.load1),
    n(m.cpu?.load5),
    n(m.cpu?.load15),
    cpuTemperature(m),
    n(m.memory?.used),
    n(m.memory?.used_ratio),
    n(m.processes?.process_count),
    recv,
    sent,
    n(m.connections?.tcp_count),
    n(m.connections?.udp_count),
    ...psi(p?.cpu?.some),
    ...psi(p?.memory?.some),
    ...psi(p?.memory?.full),
    ...psi(p?.io?.some),
    ...psi(p?.io?.full),
    // Agents without the CPU time split (older ones, non-Linux) leave these series empty.
    m.cpu?.times ? n(m.cpu.times.iowait) : null,
    m.cpu?.times ? n(m.cpu.times.steal) : null,
  ];
  return { host, devices };
}
