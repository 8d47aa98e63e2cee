import { useState } from 'react';
import type { NodeView } from '../api/front';
import { fetchHistory, type HistoryAgg, type HistoryRange } from '../api/metrics';
import { useAsync } from '../hooks/useAsync';
import type { ValueKind } from '../lib/format';
import { hasCode } from '../lib/errors';
import { liveValue, reportTimeSec } from '../lib/live';
import {
  appendSample,
  gapThreshold,
  hasPoints,
  medianSpacing,
  mergeSeries,
  type AlignedColumns,
} from '../lib/series';
import { s } from '../i18n';
import { Chart, type ChartSeries, type TimeWindow } from './Chart';
import { ErrorMessage, Loading, Notice } from './Feedback';
import { card } from './ui';

export interface SeriesSpec {
  metric: string;
  label: string;
  device?: string;
}

/** Raw ranges: legends show seconds. */
const RAW_RANGES: readonly HistoryRange[] = ['30m', '1h', '12h', '24h'];

/**
 * Columns with the live samples appended since they were fetched. State is adjusted while
 * rendering (no effect): a new fetch replaces the base, a newer report adds one row.
 */
function useLiveColumns(
  base: AlignedColumns | undefined,
  sample: { t: number; values: (number | null | undefined)[] } | null,
  windowStart: number,
  limit: number,
): AlignedColumns | undefined {
  const [acc, setAcc] = useState<{ base?: AlignedColumns; cols?: AlignedColumns }>({});
  let cols = acc.base === base ? acc.cols : base;
  if (cols && sample) cols = appendSample(cols, sample.t, sample.values, windowStart, limit);
  if (acc.base !== base || acc.cols !== cols) setAcc({ base, cols });
  return cols;
}

function aggsOf(layout: readonly { agg: HistoryAgg }[]): HistoryAgg[] {
  return [...new Set(layout.map((c) => c.agg))];
}

/**
 * One chart: fetches each series of the range (once per aggregate shown) in parallel and draws
 * them together; with `live`, each newer report of the node adds a point without a refetch.
 */
export function HistoryChart(props: {
  serverId: string;
  range: HistoryRange;
  title: string;
  kind: ValueKind;
  series: SeriesSpec[];
  aggs: readonly HistoryAgg[];
  window: TimeWindow;
  /** Live points older than this (epoch seconds: the range start) are dropped. */
  keepFrom?: number;
  live?: NodeView;
  syncKey?: string;
  onZoom?: (w: TimeWindow | null) => void;
}) {
  const { serverId, range, series, aggs } = props;
  const key = series.map((x) => `${x.metric}@${x.device ?? ''}`).join(',');
  const aggKey = aggs.join(',');
  // Series of one metric stay together: its average, then its maximum.
  const columns = series.flatMap((spec, i) => aggs.map((agg) => ({ spec, agg, color: i })));
  const state = useAsync(
    (signal) =>
      Promise.all(
        columns.map(({ spec, agg }) =>
          fetchHistory(
            {
              serverId,
              range,
              metric: spec.metric,
              device: spec.device,
              agg: agg === 'avg' ? undefined : agg,
            },
            signal,
          ),
        ),
      ).then((answers) => ({
        range,
        // The layout travels with its data: while a new layout loads, the old data stays
        // drawn with its own series.
        layout: columns,
        step: Math.max(1, ...answers.map((a) => a.step_sec || 1)),
        columns: mergeSeries(answers),
      })),
    // The keys stand for the series and aggregate lists, which callers rebuild on every render.
    [serverId, range, key, aggKey],
  );
  const t = props.live ? reportTimeSec(props.live) : null;
  const view = props.live;
  const layout = state.data?.layout ?? [];
  const shown = state.data ? aggsOf(layout) : aggs;
  const sample =
    view && t !== null
      ? { t, values: layout.map(({ spec }) => liveValue(view, spec.metric, spec.device)) }
      : null;
  const base = state.data?.columns;
  const limit = gapThreshold(state.data?.step ?? 1, base ? medianSpacing(base[0]) : null);
  const data = useLiveColumns(base, sample, props.keepFrom ?? props.window.min, limit);
  const both = shown.length > 1;
  const chartSeries: ChartSeries[] = layout.map(({ spec, agg, color }) => ({
    label: agg === 'max' && both ? s.charts.maxOf(spec.label) : spec.label,
    color,
    ...(agg === 'max' && both ? { dash: [4, 3] } : {}),
  }));
  return (
    <section
      className={`${card} min-w-0 p-3`}
      aria-label={props.title}
      data-chart={key}
      data-range={state.data?.range}
      data-agg={shown.join(',')}
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
      {data &&
        (hasPoints(data) ? (
          <Chart
            data={data}
            series={chartSeries}
            kind={props.kind}
            title={props.title}
            window={props.window}
            seconds={RAW_RANGES.includes(range)}
            syncKey={props.syncKey}
            onZoom={props.onZoom}
          />
        ) : (
          <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {s.detail.noPoints}
          </p>
        ))}
    </section>
  );
}
