import { fetchUptimeDay } from '../api/metrics';
import { useAsync } from '../hooks/useAsync';
import { formatDuration, formatPercent } from '../lib/format';
import { SLA_CLASSES, slaLevel, weightedPercent } from '../lib/uptime';
import { s } from '../i18n';
import { Dialog } from './Dialog';
import { ErrorMessage, Loading } from './Feedback';

/** The 24 local hours of one day, coloured like the strip. */
export function UptimeDayDialog(props: {
  nodeId: string;
  nodeName: string;
  date: string;
  warning: number;
  error: number;
  onClose: () => void;
}) {
  const { nodeId, date } = props;
  const day = useAsync((signal) => fetchUptimeDay(nodeId, date, signal), [nodeId, date]);
  const data = day.data;
  return (
    <Dialog title={s.uptime.dayTitle(props.nodeName, props.date)} onClose={props.onClose}>
      {day.loading && <Loading />}
      {day.error !== null && <ErrorMessage error={day.error} onRetry={day.reload} />}
      {data && (
        <>
          <p className="mb-3 text-sm">
            {s.uptime.dayAverage(formatPercent(weightedPercent(data.hours, data.observed_ms)))}
          </p>
          <ol className="grid grid-cols-4 gap-1.5 sm:grid-cols-6" aria-label={props.date}>
            {data.hours.map((p, h) => {
              const level = slaLevel(p, props.warning, props.error);
              return (
                <li
                  key={h}
                  className="rounded border border-slate-200 p-1.5 text-xs dark:border-slate-700"
                >
                  <div className="flex items-center gap-1.5">
                    <span aria-hidden className={`h-2.5 w-2.5 rounded-sm ${SLA_CLASSES[level]}`} />
                    <span className="font-medium tabular-nums">{s.uptime.hour(h)}</span>
                  </div>
                  <div className="tabular-nums" data-level={level}>
                    {p === null ? s.node.noData : formatPercent(p)}
                  </div>
                  {(data.observed_ms[h] ?? 0) > 0 && (
                    <div className="text-[10px] text-slate-500 dark:text-slate-400">
                      {s.uptime.observed(formatDuration(data.observed_ms[h] ?? 0))}
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
          <ul className="mt-3 flex flex-wrap gap-3 text-xs text-slate-600 dark:text-slate-300">
            {(
              [
                ['ok', s.uptime.legendOk],
                ['warn', s.uptime.legendWarn],
                ['bad', s.uptime.legendBad],
                ['none', s.uptime.legendNone],
              ] as const
            ).map(([level, text]) => (
              <li key={level} className="flex items-center gap-1">
                <span aria-hidden className={`h-2.5 w-2.5 rounded-sm ${SLA_CLASSES[level]}`} />
                {text}
              </li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
