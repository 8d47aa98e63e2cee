import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { NodeView } from '../api/front';
import type { NodeAlerts } from '../hooks/useAlertSummary';
import { s } from '../i18n';
import {
  formatBytes,
  formatCelsius,
  formatNumber,
  formatRate,
  formatRatio,
  usageLevel,
} from '../lib/format';
import { nodeTemperature, primaryMount } from '../lib/node-status';
import type { TableColumn } from '../lib/view-prefs';
import { card, focusRing, table, td, th } from './ui';

export interface NodeTableProps {
  nodes: NodeView[];
  columns: readonly TableColumn[];
  offline: ReadonlySet<string>;
  ago: ReadonlyMap<string, string>;
  alerts?: ReadonlyMap<string, NodeAlerts>;
}

const LEVEL_TEXT = {
  ok: '',
  warn: 'text-amber-700 dark:text-amber-300',
  danger: 'text-rose-700 dark:text-rose-300 font-semibold',
};

function Ratio(props: { ratio: number; detail?: string }) {
  return (
    <span className={LEVEL_TEXT[usageLevel(props.ratio)]} title={props.detail}>
      {formatRatio(props.ratio)}
    </span>
  );
}

/** What a column shows for one node; offline rows leave live figures empty. */
function cell(col: TableColumn, v: NodeView, offline: boolean, p: NodeTableProps): ReactNode {
  const net = v.network.total;
  const live = (node: () => ReactNode) => (offline ? s.app.none : node());
  switch (col) {
    case 'status':
      return (
        <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
          <span
            aria-hidden
            className={`h-2 w-2 rounded-full ${offline ? 'bg-slate-400' : 'bg-emerald-500'}`}
          />
          {offline ? s.node.offline : s.node.online}
        </span>
      );
    case 'name':
      return (
        <Link
          to={`/nodes/${v.node.id}`}
          className={`font-medium break-all hover:underline ${focusRing}`}
        >
          {v.node.title}
        </Link>
      );
    case 'os':
      return [v.system.platform, v.system.platform_version, v.system.arch]
        .filter(Boolean)
        .join(' ');
    case 'cpu':
      return live(() => <Ratio ratio={v.cpu.usage_ratio} />);
    case 'memory':
      return live(() => (
        <Ratio
          ratio={v.memory.used_ratio}
          detail={`${formatBytes(v.memory.used_bytes)} / ${formatBytes(v.memory.total_bytes)}`}
        />
      ));
    case 'disk': {
      const m = primaryMount(v);
      return m
        ? live(() => (
            <Ratio
              ratio={m.used_ratio}
              detail={`${m.mountpoint}: ${formatBytes(m.used_bytes)} / ${formatBytes(m.total_bytes)}`}
            />
          ))
        : s.app.none;
    }
    case 'network':
      return live(() => `${formatRate(net.recv_bps)} / ${formatRate(net.sent_bps)}`);
    case 'traffic':
      return (
        <Link
          to={`/nodes/${v.node.id}/traffic`}
          className={`hover:underline ${focusRing}`}
          aria-label={s.traffic.openFor(v.node.title)}
        >
          {formatBytes(net.bytes_recv)} / {formatBytes(net.bytes_sent)}
        </Link>
      );
    case 'load':
      return live(() => formatNumber(v.cpu.load.l1));
    case 'uptime':
      return live(() => v.system.uptime_text || s.app.none);
    case 'temperature':
      return live(() => formatCelsius(nodeTemperature(v)));
    case 'lastSeen':
      return offline ? s.fleet.lastSeen(p.ago.get(v.node.id) ?? s.app.none) : s.node.online;
    case 'alerts': {
      const a = p.alerts?.get(v.node.id);
      return a && a.count > 0 ? (
        <Link
          to={`/admin/alert-events?server_id=${v.node.id}`}
          className={`rounded bg-rose-100 px-1.5 py-0.5 text-xs font-medium text-rose-800 dark:bg-rose-900 dark:text-rose-100 ${focusRing}`}
          title={s.alerts.badgeTitle(a.metrics.join(', '))}
        >
          {s.alerts.badge(a.count)}
        </Link>
      ) : (
        s.app.none
      );
    }
  }
}

function Row(props: { v: NodeView; offline: boolean; table: NodeTableProps }) {
  const { v, offline, table: p } = props;
  return (
    <tr data-node-id={v.node.id} className={offline ? 'text-slate-500 dark:text-slate-400' : ''}>
      {p.columns.map((c) => (
        <td key={c} className={`${td} tabular-nums ${c === 'name' ? '' : 'whitespace-nowrap'}`}>
          {cell(c, v, offline, p)}
        </td>
      ))}
    </tr>
  );
}

/** The fleet as rows: one line a node, the columns the viewer chose. */
export function NodeTable(props: NodeTableProps) {
  return (
    <div className={`${card} overflow-x-auto`}>
      <table className={table} aria-label={s.fleet.tableCaption}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c} scope="col" className={`${th} whitespace-nowrap`}>
                {s.fleet.col[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.nodes.map((v) => (
            <Row key={v.node.id} v={v} offline={props.offline.has(v.node.id)} table={props} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
