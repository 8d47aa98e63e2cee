import type { NodeView } from '../api/front';

/** Offline when the last receive time is older than the server's stale_after_sec. */
export function isOffline(view: NodeView, nowMs: number): boolean {
  const at = view.observation.received_at;
  if (!at) return true;
  const t = Date.parse(at);
  if (Number.isNaN(t)) return true;
  return nowMs - t > view.observation.stale_after_sec * 1000;
}

/** Highest CPU sensor, else the highest sensor of any kind. */
export function nodeTemperature(view: NodeView): number | null {
  const sensors = view.thermal?.sensors ?? [];
  let cpu: number | null = null;
  let any: number | null = null;
  for (const x of sensors) {
    if (!(x.temp_c > 0)) continue;
    if (x.kind === 'cpu' && (cpu === null || x.temp_c > cpu)) cpu = x.temp_c;
    if (any === null || x.temp_c > any) any = x.temp_c;
  }
  return cpu ?? any;
}

/** The largest filesystem stands for the node's disk on a card. */
export function primaryMount(view: NodeView) {
  return view.disk.mounts[0] ?? null;
}

/**
 * Keeps the previous object for a node whose report did not change, so memoised cards skip
 * rendering on polls that bring nothing new.
 */
export function reuseUnchanged(prev: NodeView[], next: NodeView[]): NodeView[] {
  if (prev.length === 0) return next;
  const byId = new Map(prev.map((v) => [v.node.id, v]));
  let same = prev.length === next.length;
  const out = next.map((v, i) => {
    const old = byId.get(v.node.id);
    if (
      old &&
      old.observation.received_at === v.observation.received_at &&
      old.observation.stale_after_sec === v.observation.stale_after_sec &&
      JSON.stringify(old.node) === JSON.stringify(v.node)
    ) {
      if (prev[i] !== old) same = false;
      return old;
    }
    same = false;
    return v;
  });
  return same ? prev : out;
}
