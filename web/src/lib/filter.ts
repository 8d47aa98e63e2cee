import type { FrontGroup, NodeView } from '../api/front';

export type SortKey = 'order' | 'offline' | 'name' | 'cpu' | 'memory' | 'network';
export type StatusFilter = 'all' | 'online' | 'offline' | 'alerting';

export interface NodeFilter {
  groupId: number | null;
  search: string;
  sort: SortKey;
  /** Default 'all'. */
  status?: StatusFilter;
}

/** What the status filter and the "offline first" order need to know beyond the views. */
export interface NodeState {
  offline: ReadonlySet<string>;
  /** Nodes with open alerts (admins only; empty for guests). */
  alerting: ReadonlySet<string>;
}

const NO_STATE: NodeState = { offline: new Set(), alerting: new Set() };

export function matchesStatus(id: string, status: StatusFilter, st: NodeState): boolean {
  switch (status) {
    case 'all':
      return true;
    case 'online':
      return !st.offline.has(id);
    case 'offline':
      return st.offline.has(id);
    case 'alerting':
      return st.alerting.has(id);
  }
}

function haystack(v: NodeView): string {
  const parts = [v.node.title, ...(v.node.tags ?? []), ...(v.node.search_text ?? [])];
  return parts.join('\n').toLowerCase();
}

/** Every whitespace-separated word must appear in the name, tags or search text. */
export function matchesSearch(v: NodeView, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = haystack(v);
  return words.every((w) => text.includes(w));
}

const byName = (a: NodeView, b: NodeView) =>
  a.node.title.localeCompare(b.node.title, 'en', { numeric: true }) ||
  Number(a.node.id) - Number(b.node.id);

/** Server order: display order descending, then title, then id (reference §4.1). */
const byOrder = (a: NodeView, b: NodeView) =>
  (b.node.order ?? 0) - (a.node.order ?? 0) || byName(a, b);

type Cmp = (a: NodeView, b: NodeView) => number;

const COMPARATORS: Record<Exclude<SortKey, 'offline'>, Cmp> = {
  order: byOrder,
  name: byName,
  cpu: (a, b) => b.cpu.usage_ratio - a.cpu.usage_ratio || byOrder(a, b),
  memory: (a, b) => b.memory.used_ratio - a.memory.used_ratio || byOrder(a, b),
  network: (a, b) =>
    b.network.total.recv_bps +
      b.network.total.sent_bps -
      (a.network.total.recv_bps + a.network.total.sent_bps) || byOrder(a, b),
};

export function applyFilter(
  nodes: readonly NodeView[],
  groups: readonly FrontGroup[],
  f: NodeFilter,
  st: NodeState = NO_STATE,
): NodeView[] {
  let members: Set<string> | null = null;
  if (f.groupId !== null) {
    const g = groups.find((x) => x.id === f.groupId);
    members = new Set((g?.node_ids ?? []).map(String));
  }
  const out = nodes.filter(
    (v) =>
      (members === null || members.has(v.node.id)) &&
      matchesStatus(v.node.id, f.status ?? 'all', st) &&
      matchesSearch(v, f.search),
  );
  // "Offline first": silent nodes on top, each part in display order.
  const cmp: Cmp =
    f.sort === 'offline'
      ? (a, b) =>
          Number(st.offline.has(b.node.id)) - Number(st.offline.has(a.node.id)) || byOrder(a, b)
      : COMPARATORS[f.sort];
  return out.sort(cmp);
}
