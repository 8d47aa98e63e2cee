import { fetchStorage, type StorageStatus } from '../../api/storage';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { card, muted } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { formatBytes, formatDateTime, formatNumber } from '../../lib/format';

const t = s.admin.storage;

function Row(props: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex flex-wrap gap-x-3 text-sm">
      <dt className={`w-40 ${muted}`}>{props.label}</dt>
      <dd data-testid={props.testId}>{props.children}</dd>
    </div>
  );
}

function BudgetNotice(props: { status: StorageStatus }) {
  const b = props.status.budget;
  const from = formatDateTime(b.raw_kept_from ?? undefined);
  switch (b.state) {
    case 'none':
      return null;
    case 'ok':
      return <Notice tone="ok">{t.ok(b.raw_retention_days)}</Notice>;
    case 'shortened':
      return <Notice tone="warn">{t.shortened(from, b.raw_retention_days)}</Notice>;
    case 'over':
      return <Notice tone="warn">{t.over(from)}</Notice>;
  }
}

/** Admin settings: database size, raw history, growth per day and the size budget. */
export function StoragePanel() {
  const status = useAsync((signal) => fetchStorage(signal), []);
  const st = status.data;
  return (
    <section className={`${card} space-y-3 p-4`} aria-labelledby="storage-title">
      <h3 id="storage-title" className="text-base font-semibold">
        {t.title}
      </h3>
      {!st && status.error === null && <Loading />}
      {status.error !== null && !st && (
        <ErrorMessage error={status.error} onRetry={status.reload} />
      )}
      {st && (
        <>
          <dl className="space-y-1">
            <Row label={t.database} testId="storage-database">
              {t.databaseValue(formatBytes(st.database_bytes), formatBytes(st.used_bytes))}
            </Row>
            <Row label={t.rawHistory} testId="storage-raw">
              {t.rawValue(
                formatBytes(st.raw_history.bytes),
                formatNumber(st.raw_history.points, 0),
                st.raw_history.bytes_per_report === null
                  ? s.app.none
                  : `${formatNumber(st.raw_history.bytes_per_report, 1)} B`,
              )}
            </Row>
            <Row label={t.open} testId="storage-open">
              {t.openValue(
                formatBytes(st.raw_history.open_bytes),
                formatNumber(st.raw_history.open_rows, 0),
              )}
            </Row>
            <Row label={t.oldest}>{formatDateTime(st.raw_history.oldest_at ?? undefined)}</Row>
            <Row label={t.growth} testId="storage-growth">
              {st.growth_bytes_per_day === null
                ? t.growthUnknown
                : formatBytes(st.growth_bytes_per_day)}
            </Row>
            <Row label={t.budget} testId="storage-budget">
              {st.budget.max_bytes === null
                ? t.budgetNone
                : t.budgetValue(formatBytes(st.budget.max_bytes))}
              {st.budget.days_until_full !== null && (
                <span className={`ml-2 ${muted}`}>
                  {t.daysUntilFull(formatNumber(st.budget.days_until_full, 0))}
                </span>
              )}
            </Row>
          </dl>
          <BudgetNotice status={st} />
        </>
      )}
    </section>
  );
}
