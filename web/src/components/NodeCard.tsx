import { memo } from 'react';
import { Link } from 'react-router';
import type { NodeView } from '../api/front';
import type { UptimeDay } from '../api/metrics';
import {
  formatBytes,
  formatCelsius,
  formatDateTime,
  formatNumber,
  formatRate,
  formatRatio,
} from '../lib/format';
import { nodeTemperature, primaryMount } from '../lib/node-status';
import { s } from '../i18n';
import { Meter } from './Meter';
import { UptimeStrip } from './UptimeStrip';
import { card, focusRing } from './ui';

export interface NodeCardProps {
  view: NodeView;
  offline: boolean;
  uptime?: { days: UptimeDay[]; warning: number; error: number };
  onOpenDay: (nodeId: string, date: string) => void;
  /** Open alerts on this node (admins only). */
  alerts?: { count: number; metrics: string[] } | undefined;
  /** Offline only: how long ago the last report arrived ("5m"); replaces the stale rates. */
  ago?: string | undefined;
}

/** wide: both columns, for "in / out" rate pairs that do not fit half a narrow card. */
function Stat(props: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={`min-w-0 ${props.wide ? 'col-span-2' : ''}`}>
      <dt className="text-[11px] text-slate-500 dark:text-slate-400">{props.label}</dt>
      <dd className="truncate text-xs font-medium tabular-nums">{props.children}</dd>
    </div>
  );
}

/** One node's live state. Memoised: an unchanged report keeps the same view object. */
export const NodeCard = memo(function NodeCard({
  view,
  offline,
  uptime,
  onOpenDay,
  alerts,
  ago,
}: NodeCardProps) {
  return (
    <article
      className={`${card} flex h-full flex-col gap-2.5 p-3 ${offline ? 'opacity-70' : ''}`}
      aria-label={view.node.title}
      data-node-id={view.node.id}
    >
      <header className="flex items-start gap-2">
        <span
          className={`mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full ${offline ? 'bg-slate-400' : 'bg-emerald-500'}`}
          aria-hidden
        />
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold">
            <Link
              to={`/nodes/${view.node.id}`}
              className={`rounded hover:underline ${focusRing}`}
              aria-label={s.node.openDetail(view.node.title)}
            >
              {view.node.title}
            </Link>
          </h3>
          <p className="truncate text-[11px] text-slate-500 dark:text-slate-400">
            {[view.system.platform, view.system.platform_version, view.system.arch]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
        {alerts && alerts.count > 0 && (
          <Link
            to={`/admin/alert-events?server_id=${view.node.id}`}
            className={`shrink-0 rounded bg-rose-100 px-1.5 py-0.5 text-[11px] font-medium text-rose-800 dark:bg-rose-900 dark:text-rose-100 ${focusRing}`}
            title={s.alerts.badgeTitle(alerts.metrics.join(', '))}
            data-alert-badge
          >
            {s.alerts.badge(alerts.count)}
          </Link>
        )}
        <span
          className={`shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium ${
            offline
              ? 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'
              : 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100'
          }`}
        >
          {offline ? s.node.offline : s.node.online}
        </span>
      </header>
      {view.node.tags && view.node.tags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={s.node.tags}>
          {view.node.tags.map((t) => (
            <li
              key={t}
              className="rounded bg-sky-50 px-1.5 py-0.5 text-[11px] text-sky-800 dark:bg-sky-950 dark:text-sky-200"
            >
              {t}
            </li>
          ))}
        </ul>
      )}
      {offline ? (
        <p
          className="rounded-md bg-slate-100 px-2 py-3 text-center text-sm font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
          data-last-seen
          title={s.fleet.lastSeenAt(formatDateTime(view.observation.received_at))}
        >
          {s.fleet.lastSeen(ago ?? s.app.none)}
        </p>
      ) : (
        <LiveStats view={view} />
      )}
      {uptime && (
        <div className="mt-auto">
          <UptimeStrip
            days={uptime.days}
            warning={uptime.warning}
            error={uptime.error}
            onOpenDay={(date) => onOpenDay(view.node.id, date)}
          />
        </div>
      )}
    </article>
  );
});

/** Current usage and rates: shown only while the node reports (stale rates would mislead). */
function LiveStats({ view }: { view: NodeView }) {
  const mount = primaryMount(view);
  const temp = nodeTemperature(view);
  const mem = view.memory;
  const net = view.network.total;
  return (
    <>
      <div className="grid gap-1.5">
        <Meter
          label={s.node.cpu}
          ratio={view.cpu.usage_ratio}
          value={formatRatio(view.cpu.usage_ratio)}
        />
        <Meter
          label={s.node.memory}
          ratio={mem.used_ratio}
          value={`${formatBytes(mem.used_bytes)} / ${formatBytes(mem.total_bytes)}`}
        />
        {mount && (
          <Meter
            label={s.node.disk}
            ratio={mount.used_ratio}
            value={`${formatBytes(mount.used_bytes)} / ${formatBytes(mount.total_bytes)}`}
            detail={mount.mountpoint}
          />
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1.5">
        <Stat label={`${s.node.network} ↓ / ↑`} wide>
          {formatRate(net.recv_bps)} / {formatRate(net.sent_bps)}
        </Stat>
        <Stat label={`${s.node.totals} ↓ / ↑`}>
          <Link
            to={`/nodes/${view.node.id}/traffic`}
            className={`rounded hover:underline ${focusRing}`}
            aria-label={s.traffic.openFor(view.node.title)}
          >
            {formatBytes(net.bytes_recv)} / {formatBytes(net.bytes_sent)}
          </Link>
        </Stat>
        <Stat label={s.node.load}>
          {[view.cpu.load.l1, view.cpu.load.l5, view.cpu.load.l15]
            .map((l) => formatNumber(l))
            .join(' ')}
        </Stat>
        <Stat label={s.node.uptime}>{view.system.uptime_text || s.app.none}</Stat>
        <Stat label={s.node.temperature}>{formatCelsius(temp)}</Stat>
        <Stat label={s.node.diskIo} wide>
          {formatRate(view.disk.io.total.read_bps)} / {formatRate(view.disk.io.total.write_bps)}
        </Stat>
      </dl>
    </>
  );
}
