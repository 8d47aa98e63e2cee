import type { NodeView } from '../protocol/front-view.js';

/**
 * The per-node metric families of GET /metrics, named as node_exporter names them where it has
 * the same quantity (load, memory, filesystems, network byte counters, uname info) and
 * `dash_node_*` otherwise (rates and ratios the agent computes itself). Every series carries
 * the node's labels `node_id`, `node` and `group`; devices add `device`, `interface`,
 * `mountpoint`/`fstype` or `sensor`.
 */
export interface Family {
  name: string;
  type: 'gauge' | 'counter';
  help: string;
}

type Sample = [extraLabels: string, value: number];
type Extract = (v: NodeView, receivedAtMs: number) => Sample[];

interface FamilySpec extends Family {
  extract: Extract;
}

/** Escapes a label value for the text format (backslash, double quote, line feed). */
export function labelValue(text: string): string {
  return text.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : '\\' + c));
}

const one = (value: number | undefined): Sample[] => (value === undefined ? [] : [['', value]]);
const label = (name: string, value: string) => `,${name}="${labelValue(value)}"`;

const mounts = (pick: (m: NodeView['disk']['mounts'][number]) => number): Extract => {
  return (v) =>
    v.disk.mounts.map((m) => [
      label('mountpoint', m.mountpoint) + label('fstype', m.fs_type),
      pick(m),
    ]);
};

type Io = NonNullable<NodeView['disk']['io']['by_device']>[string];
const devices = (pick: (io: Io) => number): Extract => {
  return (v) =>
    Object.entries(v.disk.io.by_device ?? {}).map(([name, io]) => [
      label('device', name),
      pick(io),
    ]);
};

type Iface = NonNullable<NodeView['network']['by_interface']>[number];
const interfaces = (pick: (i: Iface) => number): Extract => {
  return (v) => (v.network.by_interface ?? []).map((i) => [label('interface', i.name), pick(i)]);
};

const FAMILIES: FamilySpec[] = [
  {
    name: 'node_uname_info',
    type: 'gauge',
    help: 'Operating system of the node, as node_exporter labels it.',
    extract: (v) => [
      [
        label('sysname', v.system.os_family) +
          label('release', v.system.kernel_version) +
          label('machine', v.system.arch ?? '') +
          label('platform', v.system.platform) +
          label('platform_version', v.system.platform_version),
        1,
      ],
    ],
  },
  {
    name: 'dash_node_last_report_timestamp_seconds',
    type: 'gauge',
    help: 'When Dash received the report these values come from, as a Unix time.',
    extract: (_v, receivedAtMs) => one(receivedAtMs / 1000),
  },
  {
    name: 'dash_node_cpu_usage_ratio',
    type: 'gauge',
    help: 'CPU busy share over the report interval (0-1).',
    extract: (v) => one(v.cpu.usage_ratio),
  },
  {
    name: 'node_load1',
    type: 'gauge',
    help: '1m load average.',
    extract: (v) => one(v.cpu.load.l1),
  },
  {
    name: 'node_load5',
    type: 'gauge',
    help: '5m load average.',
    extract: (v) => one(v.cpu.load.l5),
  },
  {
    name: 'node_load15',
    type: 'gauge',
    help: '15m load average.',
    extract: (v) => one(v.cpu.load.l15),
  },
  {
    name: 'node_memory_MemTotal_bytes',
    type: 'gauge',
    help: 'Total memory.',
    extract: (v) => one(v.memory.total_bytes),
  },
  {
    name: 'node_memory_MemAvailable_bytes',
    type: 'gauge',
    help: 'Memory available for new work.',
    extract: (v) => one(v.memory.available_bytes),
  },
  {
    name: 'node_memory_Buffers_bytes',
    type: 'gauge',
    help: 'Memory in buffers.',
    extract: (v) => one(v.memory.buffers_bytes),
  },
  {
    name: 'node_memory_Cached_bytes',
    type: 'gauge',
    help: 'Memory in the page cache.',
    extract: (v) => one(v.memory.cached_bytes),
  },
  {
    name: 'dash_node_memory_used_bytes',
    type: 'gauge',
    help: 'Memory in use, as the agent counts it.',
    extract: (v) => one(v.memory.used_bytes),
  },
  {
    name: 'node_memory_SwapTotal_bytes',
    type: 'gauge',
    help: 'Total swap.',
    extract: (v) => one(v.memory.swap_total_bytes),
  },
  {
    name: 'node_memory_SwapFree_bytes',
    type: 'gauge',
    help: 'Unused swap.',
    extract: (v) => one(Math.max(0, v.memory.swap_total_bytes - v.memory.swap_used_bytes)),
  },
  {
    name: 'node_filesystem_size_bytes',
    type: 'gauge',
    help: 'Filesystem size.',
    extract: mounts((m) => m.total_bytes),
  },
  {
    name: 'node_filesystem_avail_bytes',
    type: 'gauge',
    help: 'Filesystem space not in use.',
    extract: mounts((m) => Math.max(0, m.total_bytes - m.used_bytes)),
  },
  {
    name: 'dash_node_disk_read_bytes_per_second',
    type: 'gauge',
    help: 'Disk read throughput over the report interval.',
    extract: devices((io) => io.read_bps),
  },
  {
    name: 'dash_node_disk_written_bytes_per_second',
    type: 'gauge',
    help: 'Disk write throughput over the report interval.',
    extract: devices((io) => io.write_bps),
  },
  {
    name: 'dash_node_disk_reads_per_second',
    type: 'gauge',
    help: 'Disk read operations per second over the report interval.',
    extract: devices((io) => io.read_iops),
  },
  {
    name: 'dash_node_disk_writes_per_second',
    type: 'gauge',
    help: 'Disk write operations per second over the report interval.',
    extract: devices((io) => io.write_iops),
  },
  {
    name: 'node_network_receive_bytes_total',
    type: 'counter',
    help: 'Bytes received on the interface since it came up.',
    extract: interfaces((i) => i.bytes_recv),
  },
  {
    name: 'node_network_transmit_bytes_total',
    type: 'counter',
    help: 'Bytes sent on the interface since it came up.',
    extract: interfaces((i) => i.bytes_sent),
  },
  {
    name: 'dash_node_network_receive_bytes_per_second',
    type: 'gauge',
    help: 'Receive throughput over the report interval.',
    extract: interfaces((i) => i.recv_bps),
  },
  {
    name: 'dash_node_network_transmit_bytes_per_second',
    type: 'gauge',
    help: 'Send throughput over the report interval.',
    extract: interfaces((i) => i.sent_bps),
  },
  {
    name: 'dash_node_processes',
    type: 'gauge',
    help: 'Processes on the node.',
    extract: (v) => one(v.processes.count),
  },
  {
    name: 'dash_node_temperature_celsius',
    type: 'gauge',
    help: 'Temperature sensors of the node.',
    extract: (v) =>
      (v.thermal?.sensors ?? []).map((s) => [
        label('sensor', s.sensor_key) + label('kind', s.kind),
        s.temp_c,
      ]),
  },
];

export const NODE_FAMILIES: readonly Family[] = FAMILIES;

/** One node's lines, one string per family (empty when the node has none of it). */
export function renderNodeFamilies(view: NodeView, labels: string, receivedAtMs: number): string[] {
  return FAMILIES.map((f) => {
    let out = '';
    const seen = new Set<string>();
    for (const [extra, value] of f.extract(view, receivedAtMs)) {
      // A series must appear once; agents may report two mounts with the same path.
      if (!Number.isFinite(value) || seen.has(extra)) continue;
      seen.add(extra);
      out += `${f.name}{${labels}${extra}} ${value}\n`;
    }
    return out;
  });
}

export function familyHeader(f: Family): string {
  return `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n`;
}
