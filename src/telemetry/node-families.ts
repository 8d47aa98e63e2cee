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

type Mount = NodeView['disk']['mounts'][number];
type Io = NonNullable<NodeView['disk']['io']['by_device']>[string];
type Iface = NonNullable<NodeView['network']['by_interface']>[number];

/** What one node's lines are rendered from: its view with device labels escaped once. */
interface NodeCtx {
  v: NodeView;
  receivedAtMs: number;
  /** `node_id="…",node="…",group="…"` */
  labels: string;
  mounts: Array<[labels: string, m: Mount]>;
  devices: Array<[labels: string, io: Io]>;
  ifaces: Array<[labels: string, i: Iface]>;
  sensors: Array<[labels: string, tempC: number]>;
}

interface FamilySpec extends Family {
  render: (c: NodeCtx) => string;
}

const ESCAPED = /[\\"\n]/;

/** Escapes a label value for the text format (backslash, double quote, line feed). */
export function labelValue(text: string): string {
  if (!ESCAPED.test(text)) return text;
  return text.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : '\\' + c));
}

const label = (name: string, value: string) => `,${name}="${labelValue(value)}"`;

function sample(name: string, labels: string, value: number): string {
  return Number.isFinite(value) ? `${name}{${labels}} ${value}\n` : '';
}

function scalar(
  name: string,
  type: Family['type'],
  help: string,
  pick: (v: NodeView, c: NodeCtx) => number,
): FamilySpec {
  return { name, type, help, render: (c) => sample(name, c.labels, pick(c.v, c)) };
}

function each<T>(
  name: string,
  type: Family['type'],
  help: string,
  list: (c: NodeCtx) => Array<[string, T]>,
  pick: (item: T) => number,
): FamilySpec {
  return {
    name,
    type,
    help,
    render: (c) => {
      let out = '';
      for (const [extra, item] of list(c)) out += sample(name, c.labels + extra, pick(item));
      return out;
    },
  };
}

/** Pairs of (label fragment, item) with repeated label fragments dropped: a series appears once. */
function unique<T>(items: Iterable<[string, T]>): Array<[string, T]> {
  const out: Array<[string, T]> = [];
  const seen = new Set<string>();
  for (const pair of items) {
    if (seen.has(pair[0])) continue;
    seen.add(pair[0]);
    out.push(pair);
  }
  return out;
}

const mountsOf = (c: NodeCtx) => c.mounts;
const devicesOf = (c: NodeCtx) => c.devices;
const ifacesOf = (c: NodeCtx) => c.ifaces;

const FAMILIES: FamilySpec[] = [
  {
    name: 'node_uname_info',
    type: 'gauge',
    help: 'Operating system of the node, as node_exporter labels it.',
    render: ({ v, labels }) =>
      sample(
        'node_uname_info',
        labels +
          label('sysname', v.system.os_family) +
          label('release', v.system.kernel_version) +
          label('machine', v.system.arch ?? '') +
          label('platform', v.system.platform) +
          label('platform_version', v.system.platform_version),
        1,
      ),
  },
  {
    name: 'dash_node_last_report_timestamp_seconds',
    type: 'gauge',
    help: 'When Dash received the report these values come from, as a Unix time.',
    render: (c) =>
      sample('dash_node_last_report_timestamp_seconds', c.labels, c.receivedAtMs / 1000),
  },
  scalar(
    'dash_node_cpu_usage_ratio',
    'gauge',
    'CPU busy share over the report interval (0-1).',
    (v) => v.cpu.usage_ratio,
  ),
  scalar('node_load1', 'gauge', '1m load average.', (v) => v.cpu.load.l1),
  scalar('node_load5', 'gauge', '5m load average.', (v) => v.cpu.load.l5),
  scalar('node_load15', 'gauge', '15m load average.', (v) => v.cpu.load.l15),
  scalar('node_memory_MemTotal_bytes', 'gauge', 'Total memory.', (v) => v.memory.total_bytes),
  scalar(
    'node_memory_MemAvailable_bytes',
    'gauge',
    'Memory available for new work.',
    (v) => v.memory.available_bytes,
  ),
  scalar('node_memory_Buffers_bytes', 'gauge', 'Memory in buffers.', (v) => v.memory.buffers_bytes),
  scalar(
    'node_memory_Cached_bytes',
    'gauge',
    'Memory in the page cache.',
    (v) => v.memory.cached_bytes,
  ),
  scalar(
    'dash_node_memory_used_bytes',
    'gauge',
    'Memory in use, as the agent counts it.',
    (v) => v.memory.used_bytes,
  ),
  scalar('node_memory_SwapTotal_bytes', 'gauge', 'Total swap.', (v) => v.memory.swap_total_bytes),
  scalar('node_memory_SwapFree_bytes', 'gauge', 'Unused swap.', (v) =>
    Math.max(0, v.memory.swap_total_bytes - v.memory.swap_used_bytes),
  ),
  each('node_filesystem_size_bytes', 'gauge', 'Filesystem size.', mountsOf, (m) => m.total_bytes),
  each('node_filesystem_avail_bytes', 'gauge', 'Filesystem space not in use.', mountsOf, (m) =>
    Math.max(0, m.total_bytes - m.used_bytes),
  ),
  each(
    'dash_node_disk_read_bytes_per_second',
    'gauge',
    'Disk read throughput over the report interval.',
    devicesOf,
    (io) => io.read_bps,
  ),
  each(
    'dash_node_disk_written_bytes_per_second',
    'gauge',
    'Disk write throughput over the report interval.',
    devicesOf,
    (io) => io.write_bps,
  ),
  each(
    'dash_node_disk_reads_per_second',
    'gauge',
    'Disk read operations per second over the report interval.',
    devicesOf,
    (io) => io.read_iops,
  ),
  each(
    'dash_node_disk_writes_per_second',
    'gauge',
    'Disk write operations per second over the report interval.',
    devicesOf,
    (io) => io.write_iops,
  ),
  each(
    'node_network_receive_bytes_total',
    'counter',
    'Bytes received on the interface since it came up.',
    ifacesOf,
    (i) => i.bytes_recv,
  ),
  each(
    'node_network_transmit_bytes_total',
    'counter',
    'Bytes sent on the interface since it came up.',
    ifacesOf,
    (i) => i.bytes_sent,
  ),
  each(
    'dash_node_network_receive_bytes_per_second',
    'gauge',
    'Receive throughput over the report interval.',
    ifacesOf,
    (i) => i.recv_bps,
  ),
  each(
    'dash_node_network_transmit_bytes_per_second',
    'gauge',
    'Send throughput over the report interval.',
    ifacesOf,
    (i) => i.sent_bps,
  ),
  scalar('dash_node_processes', 'gauge', 'Processes on the node.', (v) => v.processes.count),
  each(
    'dash_node_temperature_celsius',
    'gauge',
    'Temperature sensors of the node.',
    (c) => c.sensors,
    (t: number) => t,
  ),
];

export const NODE_FAMILIES: readonly Family[] = FAMILIES;

/** One node's lines, one string per family (empty when the node has none of it). */
export function renderNodeFamilies(view: NodeView, labels: string, receivedAtMs: number): string[] {
  const c: NodeCtx = {
    v: view,
    receivedAtMs,
    labels,
    mounts: unique(
      view.disk.mounts.map((m) => [
        label('mountpoint', m.mountpoint) + label('fstype', m.fs_type),
        m,
      ]),
    ),
    devices: unique(
      Object.entries(view.disk.io.by_device ?? {}).map(([name, io]) => [label('device', name), io]),
    ),
    ifaces: unique((view.network.by_interface ?? []).map((i) => [label('interface', i.name), i])),
    sensors: unique(
      (view.thermal?.sensors ?? []).map((t) => [
        label('sensor', t.sensor_key) + label('kind', t.kind),
        t.temp_c,
      ]),
    ),
  };
  return FAMILIES.map((f) => f.render(c));
}

export function familyHeader(f: Family): string {
  return `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n`;
}
