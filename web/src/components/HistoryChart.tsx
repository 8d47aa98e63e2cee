import { fetchHistory, type HistoryRange } from '../api/metrics';
import { useAsync } from '../hooks/useAsync';
import { formatValue, type ValueKind } from '../lib/format';
import { hasCode } from '../lib/errors';
import { hasPoints, mergeSeries } from '../lib/series';
import { s } from '../i18n';
import { Chart } from './Chart';
import { ErrorMessage, Loading, Notice } from './Feedback';
import { card } from './ui';

export interface SeriesSpec {
  metric: string;
  label: string;
  device?: string;
}

/** One chart: fetches each series of the range in parallel and draws them together. */
export function HistoryChart(props: {
  serverId: string;
  range: HistoryRange;
  title: string;
  kind: ValueKind;
  series: SeriesSpec[];
}) {
  const { serverId, range, series } = props;
  const key = series.map((x) => `${x.metric}@${x.device ?? ''}`).join(',');
  const state = useAsync(
    (signal) =>
      Promise.all(
        series.map((x) =>
          fetchHistory({ serverId, range, metric: x.metric, device: x.device }, signal),
        ),
      ).then((answers) => ({ range, columns: mergeSeries(answers) })),
    // The key stands for the series list, which callers rebuild on every render.
    [serverId, range, key],
  );
  return (
    <section
      className={`${card} min-w-0 p-3`}
      aria-label={props.title}
      data-chart={key}
      data-range={state.data?.range}
    >
      <h3 className="mb-2 text-sm font-semibold">{props.title}</h3>
      {state.loading && !state.data && <Loading />}
      {state.error !== null &&
        // A guest's node that was hidden or deleted since the page loaded: retrying cannot help.
        (hasCode(state.error, 'not_found') ? (
          <Notice tone="warn">{s.detail.notFound}</Notice>
        ) : (
          <ErrorMessage error={state.error} onRetry={state.reload} />
        ))}
      {state.data &&
        (hasPoints(state.data.columns) ? (
          <Chart
            data={state.data.columns}
            series={series.map((x) => ({ label: x.label }))}
            format={(v) => formatValue(props.kind, v)}
            title={props.title}
          />
        ) : (
          <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {s.detail.noPoints}
          </p>
        ))}
    </section>
  );
}
