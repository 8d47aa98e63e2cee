import type { NodeView } from '../../../src/protocol/front-view.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';

export { alertReadings };

/** A healthy front view; tests override the parts a rule reads. */
export function nodeView(patch: (v: NodeView) => void = () => {}): NodeView {
  const v: NodeView = {
    node: { id: '1', title: 'n1' },
    observation: { observed_at: '2026-11-21T12:00:00Z', stale_after_sec: 30 },
    system: {
      os_family: 'linux',
      platform: 'debian',
      platform_version: '12',
      kernel_version: '6.1',
      uptime_text: '1d',
    },
    cpu: { usage_ratio: 0.1, load: { l1: 0.5, l5: 0.4, l15: 0.3 }, cores_logical: 4, sockets: 1 },
    memory: {
      total_bytes: 1000,
      used_bytes: 200,
      available_bytes: 800,
      buffers_bytes: 0,
      cached_bytes: 0,
      used_ratio: 0.2,
      swap_total_bytes: 0,
      swap_used_bytes: 0,
    },
    disk: {
      mounts: [
        {
          mountpoint: '/data',
          fs_type: 'ext4',
          total_bytes: 900,
          used_bytes: 800,
          used_ratio: 0.9,
        },
        { mountpoint: '/', fs_type: 'ext4', total_bytes: 100, used_bytes: 50, used_ratio: 0.5 },
      ],
      io: { total: { read_bps: 0, write_bps: 0, read_iops: 0, write_iops: 0, iops: 0 } },
    },
    network: { total: { bytes_recv: 0, bytes_sent: 0, recv_bps: 10, sent_bps: 20 } },
    processes: { count: 10 },
    connections: { tcp: 5, udp: 1 },
  };
  patch(v);
  return v;
}

export const cpu = (ratio: number) => nodeView((v) => (v.cpu.usage_ratio = ratio));

/** The alert readings of cpu(ratio), as the ingest thread takes them. */
export const cpuReadings = (ratio: number) => alertReadings(cpu(ratio));
