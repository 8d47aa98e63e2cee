import {
  CYCLE_MODES,
  DIRECTION_MODES,
  oneOf,
  type AdminNode,
  type CycleMode,
  type DirectionMode,
  type NodePatch,
} from '../api/admin-nodes';

/** Editable fields of a node as the form holds them (tags as typed text). */
export interface NodeForm {
  name: string;
  tagsText: string;
  groupIds: number[];
  guestVisible: boolean;
  p95: boolean;
  cycleMode: CycleMode;
  startDay: string;
  anchorDate: string;
  timezone: string;
  direction: DirectionMode;
}

export function formFromNode(n: AdminNode): NodeForm {
  return {
    name: n.name,
    tagsText: n.tags.join(', '),
    groupIds: [...n.group_ids],
    guestVisible: n.is_guest_visible,
    p95: n.traffic_p95_enabled,
    // The legacy stored `default` is the calendar month.
    cycleMode: oneOf(n.traffic_cycle_mode, CYCLE_MODES, 'calendar_month'),
    startDay: String(n.traffic_billing_start_day || 1),
    anchorDate: n.traffic_billing_anchor_date,
    timezone: n.traffic_billing_timezone,
    direction: oneOf(n.traffic_direction_mode, DIRECTION_MODES, 'default'),
  };
}

/** Tags typed as "a, b, a ,": trimmed, empties and duplicates removed, order kept. */
export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(',')) {
    const t = raw.trim();
    if (t && !out.includes(t)) out.push(t);
  }
  return out;
}

/** The cycle fields are atomic: each mode sends exactly the set it requires (reference §5.5). */
export function cycleFields(f: NodeForm): NodePatch {
  const timezone = f.timezone.trim();
  switch (f.cycleMode) {
    case 'calendar_month':
      return { traffic_cycle_mode: 'calendar_month', traffic_billing_timezone: timezone };
    case 'clamp_to_month_end':
      return {
        traffic_cycle_mode: 'clamp_to_month_end',
        traffic_billing_start_day: Number(f.startDay),
        traffic_billing_timezone: timezone,
      };
    case 'whmcs_compatible':
      return {
        traffic_cycle_mode: 'whmcs_compatible',
        traffic_billing_anchor_date: f.anchorDate.trim(),
        traffic_billing_timezone: timezone,
      };
  }
}

const sameSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Only what changed goes into the PATCH; null when nothing did. */
export function buildPatch(node: AdminNode, f: NodeForm): NodePatch | null {
  const base = formFromNode(node);
  const patch: NodePatch = {};
  if (f.name.trim() !== node.name) patch.name = f.name.trim();
  const tags = parseTags(f.tagsText);
  if (tags.join('\u0000') !== node.tags.join('\u0000')) patch.tags = tags;
  if (!sameSet(f.groupIds, node.group_ids)) patch.group_ids = [...f.groupIds].sort((a, b) => a - b);
  if (f.guestVisible !== node.is_guest_visible) patch.is_guest_visible = f.guestVisible;
  if (f.p95 !== node.traffic_p95_enabled) patch.traffic_p95_enabled = f.p95;
  if (f.direction !== node.traffic_direction_mode) patch.traffic_direction_mode = f.direction;
  const cycleChanged =
    f.cycleMode !== base.cycleMode ||
    f.timezone.trim() !== base.timezone ||
    (f.cycleMode === 'clamp_to_month_end' && f.startDay !== base.startDay) ||
    (f.cycleMode === 'whmcs_compatible' && f.anchorDate.trim() !== base.anchorDate);
  if (cycleChanged) Object.assign(patch, cycleFields(f));
  return Object.keys(patch).length > 0 ? patch : null;
}

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 random alphanumerics from the browser's CSPRNG, without modulo bias. */
export function generateSecret(length = 24): string {
  const out: string[] = [];
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const b of buf) {
      if (b < 248 && out.length < length) out.push(SECRET_ALPHABET[b % 62]!);
    }
  }
  return out.join('');
}

/** The install command the admin copies: the server's prefix plus the node's secret. */
export function installCommand(prefix: string, secret: string): string {
  return `${prefix.endsWith(' ') ? prefix : `${prefix} `}${secret}`;
}
