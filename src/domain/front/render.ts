import type { NodeView } from '../../protocol/front-view.js';
import { formatRfc3339Seconds } from '../../platform/rfc3339.js';
import type { NodeMeta } from './node-meta.js';
import type { RuntimeView } from './runtime-view.js';

/** Front view rendering (reference §4.1) from node meta and the latest runtime view. */

export function osFamily(os: string): string {
  const v = os.toLowerCase();
  if (v.includes('windows')) return 'windows';
  if (v.includes('linux')) return 'linux';
  if (v.includes('darwin') || v.includes('mac')) return 'darwin';
  return 'unknown';
}

export function renderNodePart(meta: NodeMeta): NodeView['node'] {
  const node: NodeView['node'] = { id: String(meta.id), title: meta.name };
  if (meta.displayOrder !== 0) node.order = meta.displayOrder;
  const search: string[] = [];
  for (const s of [meta.name, meta.os, meta.platform, meta.arch, ...meta.tags]) {
    const v = s.trim();
    if (v !== '' && !search.includes(v)) search.push(v);
  }
  if (search.length > 0) node.search_text = search;
  if (meta.tags.length > 0) node.tags = meta.tags;
  return node;
}

export type RenderedBody = Omit<NodeView, 'node' | 'thermal' | 'pressure'>;

/** The parts of a node's record and static report the view body is rendered from. */
export type RenderFacts = Pick<
  NodeMeta,
  'os' | 'platform' | 'platformVersion' | 'kernelVersion' | 'arch' | 'static'
>;

export function renderFacts(meta: NodeMeta): RenderFacts {
  const { os, platform, platformVersion, kernelVersion, arch } = meta;
  return { os, platform, platformVersion, kernelVersion, arch, static: meta.static };
}

export function sameFacts(a: RenderFacts, b: RenderFacts): boolean {
  return (
    a.os === b.os &&
    a.platform === b.platform &&
    a.platformVersion === b.platformVersion &&
    a.kernelVersion === b.kernelVersion &&
    a.arch === b.arch &&
    (a.static === b.static || JSON.stringify(a.static) === JSON.stringify(b.static))
  );
}

/** SMART / thermal / pressure JSON of one report, kept apart from the runtime view. */
export interface SidePayloads {
  smartJson: string | null;
  thermalJson: string | null;
  pressureJson: string | null;
}

/**
 * Everything of the view after the `node` member, as JSON (without the leading comma): the body
 * with the report's own SMART / thermal / pressure payloads spliced in; a payload the report
 * lacks is absent rather than carried over from an older report (spec §2.3).
 */
export function renderBodyJson(
  facts: RenderFacts,
  rt: RuntimeView,
  side: SidePayloads,
  staleAfterSec: number,
): string {
  return bodyJson(renderBody(facts, rt, staleAfterSec), side);
}

/** renderBodyJson for a body already rendered by renderBody. */
export function bodyJson(body: RenderedBody, side: SidePayloads): string {
  const { head, tail } = serializeBody(body);
  let out = head;
  if (side.smartJson !== null) out += ',"smart":' + side.smartJson;
  out += tail;
  if (side.thermalJson !== null) out += ',"thermal":' + side.thermalJson;
  if (side.pressureJson !== null) out += ',"pressure":' + side.pressureJson;
  return out;
}

export function renderBody(
  meta: RenderFacts,
  rt: RuntimeView,
  staleAfterSec: number,
): RenderedBody {
  const st = meta.static;
  const cpu: NodeView['cpu'] = {
    usage_ratio: rt.cpu.usage,
    load: { l1: rt.cpu.l1, l5: rt.cpu.l5, l15: rt.cpu.l15 },
    sockets: st.cpu.sockets ?? 1,
  };
  if (st.cpu.modelName) cpu.model_name = st.cpu.modelName;
  if (st.cpu.coresPhysical) cpu.cores_physical = st.cpu.coresPhysical;
  if (st.cpu.coresLogical) cpu.cores_logical = st.cpu.coresLogical;
  const system: NodeView['system'] = {
    os_family: osFamily(meta.os),
    platform: meta.platform,
    platform_version: meta.platformVersion,
    kernel_version: meta.kernelVersion,
    uptime_text: rt.uptimeText,
  };
  if (meta.arch) system.arch = meta.arch;
  const root = st.root;
  const disk: NodeView['disk'] = {
    mounts: rt.mounts.map((m) => ({
      mountpoint: m.label,
      fs_type: m.fsType ?? (root && root.path === m.label ? (root.fsType ?? '') : ''),
      total_bytes: m.total,
      used_bytes: m.used,
      used_ratio: m.ratio,
    })),
    io: rt.io,
  };
  if (rt.temperatureDevices) disk.temperature_devices = rt.temperatureDevices;
  const body: RenderedBody = {
    observation: {
      received_at: formatRfc3339Seconds(rt.receivedAt),
      observed_at: formatRfc3339Seconds(rt.observedAt),
      sent_at: rt.sentAt,
      stale_after_sec: staleAfterSec,
    },
    system,
    cpu,
    memory: {
      total_bytes: rt.memory.total || (st.memory.total ?? 0),
      used_bytes: rt.memory.used,
      available_bytes: rt.memory.available,
      buffers_bytes: rt.memory.buffers,
      cached_bytes: rt.memory.cached,
      used_ratio: rt.memory.usedRatio,
      swap_total_bytes: rt.memory.swapTotal || (st.memory.swapTotal ?? 0),
      swap_used_bytes: rt.memory.swapUsed,
    },
    disk,
    network: rt.network,
    processes: { count: rt.processes },
    connections: { tcp: rt.tcp, udp: rt.udp },
  };
  if (rt.raid) body.raid = rt.raid;
  return body;
}

/**
 * The body as two JSON fragments around the `disk.smart` slot, so the side caches can be
 * spliced in without serialising the whole view again.
 */
export function serializeBody(b: RenderedBody): { head: string; tail: string } {
  const j = JSON.stringify;
  const temps = b.disk.temperature_devices
    ? `,"temperature_devices":${j(b.disk.temperature_devices)}`
    : '';
  const head =
    `"observation":${j(b.observation)},"system":${j(b.system)},"cpu":${j(b.cpu)},` +
    `"memory":${j(b.memory)},"disk":{"mounts":${j(b.disk.mounts)},"io":${j(b.disk.io)}${temps}`;
  const tail =
    `},"network":${j(b.network)},"processes":${j(b.processes)},` +
    `"connections":${j(b.connections)}${b.raid ? `,"raid":${j(b.raid)}` : ''}`;
  return { head, tail };
}
