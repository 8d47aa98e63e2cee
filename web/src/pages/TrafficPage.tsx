import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  fetchIfaces,
  fetchTrafficDaily,
  fetchTrafficMonthly,
  fetchTrafficSummary,
  type TrafficDay,
  type TrafficPeriod,
  type TrafficSummary,
} from '../api/traffic';
import { useAuth } from '../auth/context';
import { ErrorMessage, Loading, Notice } from '../components/Feedback';
import { card, focusRing, input, label, muted } from '../components/ui';
import { useAsync } from '../hooks/useAsync';
import { s } from '../i18n';
import { formatBytes, formatDate, formatRate } from '../lib/format';
import { barHeights, coveragePercent } from '../lib/traffic';
import { CalibrationPanel } from './traffic/CalibrationPanel';
import { adjustedHint, CycleCard } from './traffic/CycleCard';

const t = s.traffic;

function DailyBars(props: { days: TrafficDay[] }) {
  const heights = barHeights(props.days.map((d) => d.stats.selected_bytes));
  return (
    <div className="flex h-40 items-end gap-1" role="list" aria-label={t.daily}>
      {props.days.map((d, i) => {
        const text = `${d.start.slice(0, 10)}: ${formatBytes(d.stats.selected_bytes)} (${coveragePercent(d.stats)})`;
        return (
          <div
            key={d.start}
            role="listitem"
            title={text}
            aria-label={text}
            className={`min-w-1 flex-1 rounded-t ${d.stats.data_complete ? 'bg-sky-500' : 'bg-amber-400'}`}
            style={{ height: `${Math.max(2, (heights[i] ?? 0) * 100)}%` }}
          />
        );
      })}
    </div>
  );
}

function MonthlyTable(props: { items: TrafficSummary[] }) {
  const c = t.columns;
  return (
    <table className="w-full text-left text-sm">
      <thead className={muted}>
        <tr>
          <th className="py-1 pr-2 font-medium">{c.cycle}</th>
          <th className="py-1 pr-2 font-medium">{c.billed}</th>
          <th className="py-1 pr-2 font-medium">{c.adjusted}</th>
          <th className="py-1 pr-2 font-medium">{c.inbound}</th>
          <th className="py-1 pr-2 font-medium">{c.outbound}</th>
          <th className="py-1 pr-2 font-medium">{c.p95}</th>
          <th className="py-1 pr-2 font-medium">{c.coverage}</th>
          <th className="py-1 font-medium">{c.status}</th>
        </tr>
      </thead>
      <tbody className="tabular-nums">
        {props.items.map((m) => (
          <tr key={m.cycle.start} className="border-t border-slate-200 dark:border-slate-700">
            <td className="py-1 pr-2">{formatDate(m.cycle.start)}</td>
            <td className="py-1 pr-2">{formatBytes(m.stats.selected_bytes)}</td>
            <td className="py-1 pr-2" title={adjustedHint(m.stats)}>
              {m.stats.calibration && m.stats.adjusted_selected_bytes !== undefined
                ? `${formatBytes(m.stats.adjusted_selected_bytes)} (${t.adjustedShort[m.stats.calibration.basis] ?? ''})`
                : s.app.none}
            </td>
            <td className="py-1 pr-2">{formatBytes(m.stats.in_bytes)}</td>
            <td className="py-1 pr-2">{formatBytes(m.stats.out_bytes)}</td>
            <td className="py-1 pr-2">
              {m.stats.p95_status === 'available'
                ? formatRate(m.stats.selected_p95_bytes_per_sec)
                : s.app.none}
            </td>
            <td className="py-1 pr-2">{coveragePercent(m.stats)}</td>
            <td className="py-1">{t.status[m.stats.status] ?? m.stats.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function IfaceTraffic(props: { id: string; iface: string; period: TrafficPeriod; admin: boolean }) {
  const { id, iface, period } = props;
  const summary = useAsync((sig) => fetchTrafficSummary(id, iface, sig), [id, iface]);
  const monthly = useAsync((sig) => fetchTrafficMonthly(id, iface, 12, sig), [id, iface]);
  const billing = summary.data?.usage_mode === 'billing';
  // Until the summary says which mode is on, ask nothing (an early empty answer would show
  // as "no daily figures" while the real ones load).
  const known = summary.data !== undefined;
  const daily = useAsync(
    (sig) =>
      !known
        ? new Promise<never>(() => {})
        : billing
          ? fetchTrafficDaily(id, iface, period, sig)
          : Promise.resolve({ items: [] }),
    [id, iface, period, billing, known],
  );
  if (summary.loading && !summary.data) return <Loading />;
  if (!summary.data) return <ErrorMessage error={summary.error} onRetry={summary.reload} />;
  const cur = summary.data;
  const previous = monthly.data?.items.find((m) => m.cycle.end === cur.cycle.start);
  const shown = period === 'current' ? cur : previous;
  return (
    <div className="space-y-3">
      <p className={`text-sm ${muted}`}>
        {t.usageModes[cur.usage_mode]} · {t.directions[cur.direction_mode]} ·{' '}
        {t.cycleModes[cur.cycle.mode] ?? cur.cycle.mode}
      </p>
      {shown ? (
        <CycleCard
          title={period === 'current' ? t.current : t.previous}
          summary={shown}
          forecast={period === 'current'}
        />
      ) : monthly.loading ? (
        <Loading />
      ) : (
        <Notice>{t.noMonthly}</Notice>
      )}
      <section className={`${card} space-y-2 p-3`} aria-label={t.daily}>
        <h2 className="font-semibold">{t.daily}</h2>
        {!billing ? (
          <Notice>{t.dailyLite}</Notice>
        ) : daily.error ? (
          <ErrorMessage error={daily.error} onRetry={daily.reload} />
        ) : !daily.data ? (
          <Loading />
        ) : daily.data.items.length > 0 ? (
          <DailyBars days={daily.data.items} />
        ) : (
          <p className={`text-sm ${muted}`}>{t.noDaily}</p>
        )}
      </section>
      <section className={`${card} space-y-2 p-3`} aria-label={t.monthly}>
        <h2 className="font-semibold">{t.monthly}</h2>
        {monthly.error ? (
          <ErrorMessage error={monthly.error} onRetry={monthly.reload} />
        ) : !monthly.data ? (
          <Loading />
        ) : monthly.data.items.length > 0 ? (
          <MonthlyTable items={monthly.data.items} />
        ) : (
          <p className={`text-sm ${muted}`}>{t.noMonthly}</p>
        )}
      </section>
      {props.admin && monthly.data && (
        <CalibrationPanel
          id={id}
          iface={iface}
          closed={monthly.data.items.filter((m) => m.stats.cycle_complete)}
          onChanged={() => {
            summary.reload();
            monthly.reload();
            daily.reload();
          }}
        />
      )}
    </div>
  );
}

/** /nodes/:id/traffic — billing-cycle traffic of one node. */
export function TrafficPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  // Guests and admins see different nodes: wait for the session check, refetch when it changes.
  const caller = useAuth().status;
  const ifaces = useAsync(
    (sig) => (caller === 'checking' ? new Promise<never>(() => {}) : fetchIfaces(id, sig)),
    [id, caller],
  );
  const [period, setPeriod] = useState<TrafficPeriod>('current');
  const chosen = params.get('iface') ?? ifaces.data?.[0]?.name;

  return (
    <div className="space-y-4">
      <Link
        to={`/nodes/${id}`}
        className={`text-sm text-sky-700 hover:underline dark:text-sky-400 ${focusRing}`}
      >
        ← {t.back}
      </Link>
      <h1 className="text-2xl font-semibold">{t.open}</h1>
      {ifaces.loading && !ifaces.data ? (
        <Loading />
      ) : !ifaces.data ? (
        <ErrorMessage error={ifaces.error} onRetry={ifaces.reload} />
      ) : ifaces.data.length === 0 || !chosen ? (
        <Notice>{t.noIfaces}</Notice>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <div>
              <label htmlFor="traffic-iface" className={label}>
                {t.iface}
              </label>
              <select
                id="traffic-iface"
                className={input}
                value={chosen}
                onChange={(e) =>
                  setParams(
                    (prev) => {
                      const next = new URLSearchParams(prev);
                      next.set('iface', e.target.value);
                      return next;
                    },
                    { replace: true },
                  )
                }
              >
                {ifaces.data.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.name}
                  </option>
                ))}
              </select>
            </div>
            <div role="radiogroup" aria-label={t.current} className="flex gap-1">
              {(['current', 'previous'] as const).map((p) => (
                <button
                  key={p}
                  type="button"
                  role="radio"
                  aria-checked={period === p}
                  onClick={() => setPeriod(p)}
                  className={`rounded-md px-2.5 py-1 text-sm ${focusRing} ${
                    period === p
                      ? 'bg-sky-600 text-white'
                      : 'bg-white text-slate-700 ring-1 ring-slate-300 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600'
                  }`}
                >
                  {p === 'current' ? t.current : t.previous}
                </button>
              ))}
            </div>
          </div>
          <IfaceTraffic
            key={caller}
            id={id}
            iface={chosen}
            period={period}
            admin={caller === 'admin'}
          />
        </>
      )}
    </div>
  );
}
