import type { NodeView } from '../api/front';
import { s } from '../i18n';
import type { StatusFilter } from '../lib/filter';
import { formatBytes, formatRate } from '../lib/format';
import { card, focusRing } from './ui';

export interface FleetTotals {
  total: number;
  online: number;
  offline: number;
  alerting: number;
  bytesRecv: number;
  bytesSent: number;
  /** Current rates of the nodes that report (an offline node's last rate is not current). */
  recvBps: number;
  sentBps: number;
}

export function fleetTotals(
  nodes: readonly NodeView[],
  offline: ReadonlySet<string>,
  alerting: ReadonlySet<string>,
): FleetTotals {
  const t: FleetTotals = {
    total: nodes.length,
    online: 0,
    offline: 0,
    alerting: 0,
    bytesRecv: 0,
    bytesSent: 0,
    recvBps: 0,
    sentBps: 0,
  };
  for (const v of nodes) {
    const net = v.network.total;
    t.bytesRecv += net.bytes_recv || 0;
    t.bytesSent += net.bytes_sent || 0;
    if (alerting.has(v.node.id)) t.alerting++;
    if (offline.has(v.node.id)) {
      t.offline++;
      continue;
    }
    t.online++;
    t.recvBps += net.recv_bps || 0;
    t.sentBps += net.sent_bps || 0;
  }
  return t;
}

const TONE: Record<StatusFilter, string> = {
  all: '',
  online: 'text-emerald-700 dark:text-emerald-300',
  offline: 'text-slate-600 dark:text-slate-300',
  alerting: 'text-rose-700 dark:text-rose-300',
};

function Tile(props: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 px-3 py-2">
      <div className="text-[11px] text-slate-500 dark:text-slate-400">{props.label}</div>
      <div className="truncate text-sm font-semibold tabular-nums">{props.children}</div>
    </div>
  );
}

/**
 * The fleet at a glance: counts that double as status filters, total traffic and the current
 * up/down rate of every reporting node.
 */
export function FleetOverview(props: {
  totals: FleetTotals;
  status: StatusFilter;
  onStatus: (status: StatusFilter) => void;
  /** Admins see the alerting count (guests cannot read alerts). */
  showAlerting: boolean;
}) {
  const { totals: t, status } = props;
  const counts: { key: StatusFilter; label: string; n: number }[] = [
    { key: 'all', label: s.fleet.total, n: t.total },
    { key: 'online', label: s.fleet.status.online, n: t.online },
    { key: 'offline', label: s.fleet.status.offline, n: t.offline },
    ...(props.showAlerting
      ? [{ key: 'alerting' as const, label: s.fleet.status.alerting, n: t.alerting }]
      : []),
  ];
  return (
    <section
      aria-label={s.fleet.overview}
      className={`${card} flex flex-wrap items-stretch divide-x divide-slate-200 dark:divide-slate-700`}
    >
      {counts.map((c) => (
        <button
          key={c.key}
          type="button"
          aria-pressed={status === c.key}
          title={c.key === 'all' ? s.fleet.showAll : s.fleet.showOnly(c.label)}
          data-status={c.key}
          onClick={() => props.onStatus(status === c.key ? 'all' : c.key)}
          className={`min-w-20 px-3 py-2 text-left first:rounded-l-lg hover:bg-slate-50 dark:hover:bg-slate-800 ${focusRing} ${
            status === c.key ? 'bg-slate-100 dark:bg-slate-800' : ''
          }`}
        >
          <span className="block text-[11px] text-slate-500 dark:text-slate-400">{c.label}</span>
          <span className={`block text-lg leading-6 font-semibold tabular-nums ${TONE[c.key]}`}>
            {c.n}
          </span>
        </button>
      ))}
      <Tile label={s.fleet.traffic}>
        {formatBytes(t.bytesRecv)} / {formatBytes(t.bytesSent)}
      </Tile>
      <Tile label={s.fleet.rate}>
        {formatRate(t.recvBps)} / {formatRate(t.sentBps)}
      </Tile>
    </section>
  );
}
