import type { TrafficForecast, TrafficStats, TrafficSummary } from '../../api/traffic';
import { card, muted } from '../../components/ui';
import { s } from '../../i18n';
import { formatBytes, formatDate, formatDateTime, formatRate } from '../../lib/format';
import { billDifference, coveragePercent, dataIssues } from '../../lib/traffic';

const t = s.traffic;

export function Figure(props: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div className="min-w-0" data-testid={props.testId}>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{props.label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{props.value}</dd>
      {props.hint && <dd className={`text-xs ${muted}`}>{props.hint}</dd>}
    </div>
  );
}

/** Coverage, gaps and resets stated as they are, next to the figures they qualify. */
function Quality(props: { stats: TrafficStats; billing: boolean }) {
  const st = props.stats;
  const issues = dataIssues(st);
  // Billing sums closed five-minute intervals only: a new interface reads 0 B until its first
  // one closes, which would otherwise look like a fault.
  const waiting = props.billing && st.expected_sample_count === 0 && st.selected_bytes === 0;
  return (
    <div className="space-y-1 text-sm" data-testid="traffic-quality">
      {waiting && (
        <p className={muted} data-testid="traffic-first-interval">
          {t.firstInterval}
        </p>
      )}
      <p>
        <span className="font-medium">{t.coverage}: </span>
        <span className="tabular-nums">{coveragePercent(st)}</span>{' '}
        <span className={muted}>
          ({t.coverageDetail(st.sample_count, st.expected_sample_count)})
        </span>
        {' · '}
        <span>{t.status[st.status] ?? st.status}</span>
      </p>
      {issues.length > 0 && (
        <ul className="list-inside list-disc text-amber-800 dark:text-amber-200">
          {issues.includes('gaps') && <li>{t.issues.gaps(st.gap_count)}</li>}
          {issues.includes('resets') && <li>{t.issues.resets(st.reset_count)}</li>}
          {issues.includes('incomplete') && <li>{t.issues.incomplete}</li>}
        </ul>
      )}
    </div>
  );
}

/** The bill (or the estimate from one) beside Dash's own figure, with where it comes from. */
export function adjustedHint(st: TrafficStats): string {
  const c = st.calibration;
  if (!c || st.adjusted_selected_bytes === undefined) return '';
  if (c.basis === 'estimate') {
    return t.estimateFrom(c.ratio.toFixed(3), formatDate(c.source_cycle_start));
  }
  return t.billVsDash(billDifference(st.adjusted_selected_bytes, st.selected_bytes));
}

function Forecast(props: { f: TrafficForecast }) {
  const f = props.f;
  const level = `${Math.round(f.interval_level * 100)}%`;
  if (f.status !== 'available' || f.projected_selected_bytes === null) {
    return (
      <p className={`text-sm ${muted}`} data-testid="traffic-forecast">
        {t.forecastTooFew(f.days_observed, f.min_days)}
      </p>
    );
  }
  return (
    <div className="space-y-1" data-testid="traffic-forecast">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure
          label={t.forecast}
          value={formatBytes(f.projected_selected_bytes)}
          hint={t.forecastRange(
            formatBytes(f.projected_selected_bytes_low),
            formatBytes(f.projected_selected_bytes_high),
            level,
          )}
        />
        {f.projected_p95_bytes_per_sec !== null && (
          <Figure
            label={t.forecastP95}
            value={formatRate(f.projected_p95_bytes_per_sec)}
            hint={t.forecastRange(
              formatRate(f.projected_p95_bytes_per_sec_low),
              formatRate(f.projected_p95_bytes_per_sec_high),
              level,
            )}
          />
        )}
        {f.adjusted_projected_selected_bytes !== undefined && (
          <Figure
            label={t.estimatedBillAtEnd}
            value={formatBytes(f.adjusted_projected_selected_bytes)}
            hint={t.forecastRange(
              formatBytes(f.adjusted_projected_selected_bytes_low),
              formatBytes(f.adjusted_projected_selected_bytes_high),
              level,
            )}
          />
        )}
      </dl>
      <p className={`text-xs ${muted}`}>
        {t.forecastBasis(f.days_observed, f.days_remaining.toFixed(1))} ·{' '}
        {f.model ? t.forecastModel[f.model] : ''}
      </p>
    </div>
  );
}

export function CycleCard(props: { title: string; summary: TrafficSummary; forecast: boolean }) {
  const { summary } = props;
  const st = summary.stats;
  const dir = t.selectedDirections[st.selected_bytes_direction] ?? st.selected_bytes_direction;
  const p95 =
    st.p95_status === 'available' ? formatRate(st.selected_p95_bytes_per_sec) : s.app.none;
  const f = props.forecast ? summary.forecast : undefined;
  return (
    <section className={`${card} space-y-3 p-3`} aria-label={props.title}>
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">{props.title}</h2>
        <span className={`text-xs ${muted}`}>
          {t.cycle(formatDateTime(summary.cycle.start), formatDateTime(summary.cycle.end))} ·{' '}
          {summary.cycle.timezone}
        </span>
      </header>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label={`${t.billed} (${dir})`} value={formatBytes(st.selected_bytes)} />
        {st.calibration && st.adjusted_selected_bytes !== undefined && (
          <Figure
            testId="traffic-adjusted"
            label={`${t.adjusted[st.calibration.basis] ?? ''} (${dir})`}
            value={formatBytes(st.adjusted_selected_bytes)}
            hint={adjustedHint(st)}
          />
        )}
        <Figure label={t.inbound} value={formatBytes(st.in_bytes)} />
        <Figure label={t.outbound} value={formatBytes(st.out_bytes)} />
        <Figure
          label={t.p95}
          value={p95}
          {...(st.p95_status !== 'available' ? { hint: t.p95Status[st.p95_status] } : {})}
        />
        <Figure label={t.peak} value={formatRate(st.selected_peak_bytes_per_sec)} />
      </dl>
      {f && <Forecast f={f} />}
      <Quality stats={st} billing={summary.usage_mode === 'billing'} />
    </section>
  );
}
