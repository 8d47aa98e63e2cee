import { Link, useParams, useSearchParams } from 'react-router';
import { useAuth } from '../auth/context';
import { HISTORY_RANGES, type HistoryRange } from '../api/metrics';
import {
  DiskIoPanel,
  InterfacesPanel,
  MountsPanel,
  PressurePanel,
  RaidPanel,
  SmartPanel,
  ThermalPanel,
} from '../components/DetailPanels';
import { ErrorMessage, Loading, Notice } from '../components/Feedback';
import { HistorySection } from '../components/HistorySection';
import { NodeUptime } from '../components/NodeUptime';
import { Meter } from '../components/Meter';
import { card, focusRing } from '../components/ui';
import { useNow } from '../hooks/useNow';
import { s } from '../i18n';
import { formatBytes, formatCelsius, formatNumber, formatRate, formatRatio } from '../lib/format';
import { isOffline, nodeTemperature } from '../lib/node-status';
import { useResource, useResources } from '../state/resources';

function parseRange(v: string | null): HistoryRange {
  return (HISTORY_RANGES as readonly string[]).includes(v ?? '') ? (v as HistoryRange) : '1h';
}

function Fact(props: { label: string; value: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{props.label}</dt>
      <dd className="truncate text-sm font-medium tabular-nums">{props.value}</dd>
    </div>
  );
}

function RangePicker(props: { value: HistoryRange; onChange: (r: HistoryRange) => void }) {
  return (
    <div role="radiogroup" aria-label={s.detail.rangeLabel} className="flex flex-wrap gap-1">
      {HISTORY_RANGES.map((r) => (
        <button
          key={r}
          type="button"
          role="radio"
          aria-checked={props.value === r}
          onClick={() => props.onChange(r)}
          className={`rounded-md px-2.5 py-1 text-sm ${focusRing} ${
            props.value === r
              ? 'bg-sky-600 text-white'
              : 'bg-white text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600'
          }`}
        >
          {s.detail.ranges[r]}
        </button>
      ))}
    </div>
  );
}

export function NodeDetailPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const range = parseRange(params.get('range'));
  const res = useResources();
  const auth = useAuth();
  const metrics = useResource(res.metrics);
  const access = useResource(res.access).data;
  const uptime = useResource(res.uptime).data;
  const now = useNow(1000);

  if (metrics.loading && !metrics.data) return <Loading />;
  if (!metrics.data) {
    return <ErrorMessage error={metrics.error} onRetry={() => res.metrics.reload()} />;
  }
  const view = metrics.data.find((v) => v.node.id === id);
  if (!view) {
    return (
      <div className="space-y-3">
        <Link
          to="/"
          className={`text-sm text-sky-700 hover:underline dark:text-sky-400 ${focusRing}`}
        >
          ← {s.detail.back}
        </Link>
        <Notice tone="warn">{s.detail.notFound}</Notice>
      </div>
    );
  }
  const offline = isOffline(view, now);
  const historyAllowed = auth.status === 'admin' || access?.history_guest_access_mode === 'by_node';
  const accessKnown = auth.status === 'admin' || access !== undefined;
  const cores = [view.cpu.cores_physical, view.cpu.cores_logical].filter(Boolean).join(' / ');

  return (
    <div className="space-y-4">
      <Link
        to="/"
        className={`text-sm text-sky-700 hover:underline dark:text-sky-400 ${focusRing}`}
      >
        ← {s.detail.back}
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-all">{view.node.title}</h1>
        <span
          className={`rounded px-2 py-0.5 text-xs font-medium ${offline ? 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200' : 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100'}`}
        >
          {offline ? s.node.offline : s.node.online}
        </span>
        <Link
          to={`/nodes/${view.node.id}/traffic`}
          className={`rounded-md px-2 py-0.5 text-sm text-sky-700 ring-1 ring-sky-300 hover:bg-sky-50 dark:text-sky-300 dark:ring-sky-700 ${focusRing}`}
          aria-label={s.traffic.openFor(view.node.title)}
        >
          {s.traffic.open}
        </Link>
        {(view.node.tags ?? []).map((t) => (
          <span
            key={t}
            className="rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-800 dark:bg-sky-950 dark:text-sky-200"
          >
            {t}
          </span>
        ))}
      </div>

      <section className={`${card} grid gap-4 p-3 md:grid-cols-2`} aria-label={s.detail.system}>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Fact
            label={s.detail.os}
            value={`${view.system.platform} ${view.system.platform_version}`.trim() || s.app.none}
          />
          <Fact label={s.detail.kernel} value={view.system.kernel_version || s.app.none} />
          <Fact label={s.detail.arch} value={view.system.arch ?? s.app.none} />
          <Fact label={s.detail.cpuModel} value={view.cpu.model_name ?? s.app.none} />
          <Fact label={s.detail.cores} value={cores || s.app.none} />
          <Fact label={s.node.uptime} value={view.system.uptime_text || s.app.none} />
          <Fact
            label={s.node.load}
            value={[view.cpu.load.l1, view.cpu.load.l5, view.cpu.load.l15]
              .map((l) => formatNumber(l))
              .join(' ')}
          />
          <Fact label={s.node.temperature} value={formatCelsius(nodeTemperature(view))} />
          <Fact label={s.node.processes} value={formatNumber(view.processes.count, 0)} />
          <Fact
            label={s.node.connections}
            value={`${s.detail.series.tcp} ${view.connections.tcp} · ${s.detail.series.udp} ${view.connections.udp}`}
          />
          <Fact
            label={`${s.node.network} ↓ / ↑`}
            value={`${formatRate(view.network.total.recv_bps)} / ${formatRate(view.network.total.sent_bps)}`}
          />
          <Fact
            label={`${s.node.totals} ↓ / ↑`}
            value={`${formatBytes(view.network.total.bytes_recv)} / ${formatBytes(view.network.total.bytes_sent)}`}
          />
        </dl>
        <div className="grid content-start gap-2">
          <Meter
            label={s.node.cpu}
            ratio={view.cpu.usage_ratio}
            value={formatRatio(view.cpu.usage_ratio)}
          />
          <Meter
            label={s.node.memory}
            ratio={view.memory.used_ratio}
            value={`${formatBytes(view.memory.used_bytes)} / ${formatBytes(view.memory.total_bytes)}`}
          />
          {view.memory.swap_total_bytes > 0 && (
            <Meter
              label={s.node.swap}
              ratio={view.memory.swap_used_bytes / view.memory.swap_total_bytes}
              value={`${formatBytes(view.memory.swap_used_bytes)} / ${formatBytes(view.memory.swap_total_bytes)}`}
            />
          )}
        </div>
      </section>

      {uptime?.enabled && (
        <NodeUptime nodeId={view.node.id} nodeName={view.node.title} uptime={uptime} now={now} />
      )}

      {/* Charts first on wide screens; on a phone the current state comes first. */}
      <div className="flex flex-col gap-4">
        <section aria-label={s.detail.history} className="order-2 space-y-3 lg:order-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{s.detail.history}</h2>
            {historyAllowed && (
              <RangePicker
                value={range}
                onChange={(r) =>
                  setParams(
                    (prev) => {
                      const next = new URLSearchParams(prev);
                      next.set('range', r);
                      return next;
                    },
                    { replace: true },
                  )
                }
              />
            )}
          </div>
          {!accessKnown ? (
            <Loading />
          ) : historyAllowed ? (
            <HistorySection view={view} range={range} now={now} />
          ) : (
            <Notice>{s.detail.historyUnavailable}</Notice>
          )}
        </section>
        <div className="order-1 space-y-3 lg:order-2">
          <div className="grid gap-3 xl:grid-cols-2">
            <MountsPanel view={view} />
            <DiskIoPanel view={view} />
            <InterfacesPanel view={view} />
            <ThermalPanel view={view} />
            <PressurePanel view={view} />
            <RaidPanel view={view} />
          </div>
          <SmartPanel view={view} />
        </div>
      </div>
    </div>
  );
}
