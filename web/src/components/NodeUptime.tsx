import { useState } from 'react';
import { fetchUptimeDay, type UptimeResponse } from '../api/metrics';
import { useAsync } from '../hooks/useAsync';
import { formatPercent } from '../lib/format';
import { hourIn, last24Hours, lastDays, slaLevel } from '../lib/uptime';
import { s } from '../i18n';
import { UptimeDayDialog } from './UptimeDayDialog';
import { UptimeStrip } from './UptimeStrip';
import { card } from './ui';

const LEVEL_TEXT = {
  ok: 'text-emerald-700 dark:text-emerald-400',
  warn: 'text-amber-700 dark:text-amber-400',
  bad: 'text-rose-700 dark:text-rose-400',
  none: 'text-slate-500 dark:text-slate-400',
} as const;

/**
 * A node's availability: the last 24 hours (from the hourly rates of yesterday and today), 30
 * and 45 days as numbers, and the 45-day strip whose days open their 24 hours.
 */
export function NodeUptime(props: {
  nodeId: string;
  nodeName: string;
  uptime: UptimeResponse;
  now: number;
}) {
  const { nodeId, uptime } = props;
  const days = uptime.nodes.find((n) => n.server_id === nodeId)?.days ?? [];
  const today = days.at(-1)?.date ?? '';
  const yesterday = days.at(-2)?.date ?? '';
  const [openDay, setOpenDay] = useState<string | null>(null);
  // Refreshed with the uptime list (every minute): its generated_at changes.
  const hours = useAsync(
    (signal) =>
      Promise.all([
        yesterday ? fetchUptimeDay(nodeId, yesterday, signal) : Promise.resolve(undefined),
        today ? fetchUptimeDay(nodeId, today, signal) : Promise.resolve(undefined),
      ]),
    [nodeId, yesterday, today, uptime.generated_at],
  );
  if (days.length === 0) return null;
  const h24 = hours.data
    ? last24Hours(hours.data[0], hours.data[1], hourIn(uptime.timezone, props.now))
    : null;
  const windows = [
    [s.charts.uptimeWindows.h24, hours.data ? h24 : undefined],
    [s.charts.uptimeWindows.d30, lastDays(days, 30)],
    [s.charts.uptimeWindows.d45, lastDays(days, 45)],
  ] as const;
  return (
    <section className={`${card} space-y-2 p-3`} aria-label={s.charts.uptime}>
      <h2 className="text-sm font-semibold">{s.charts.uptime}</h2>
      <dl className="grid grid-cols-3 gap-3">
        {windows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd
              className={`text-lg font-semibold tabular-nums ${
                LEVEL_TEXT[slaLevel(value ?? null, uptime.warning_sla, uptime.error_sla)]
              }`}
            >
              {value === undefined ? '…' : value === null ? s.node.noData : formatPercent(value)}
            </dd>
          </div>
        ))}
      </dl>
      <UptimeStrip
        days={days}
        warning={uptime.warning_sla}
        error={uptime.error_sla}
        onOpenDay={setOpenDay}
      />
      {openDay && (
        <UptimeDayDialog
          nodeId={nodeId}
          nodeName={props.nodeName}
          date={openDay}
          warning={uptime.warning_sla}
          error={uptime.error_sla}
          onClose={() => setOpenDay(null)}
        />
      )}
    </section>
  );
}
