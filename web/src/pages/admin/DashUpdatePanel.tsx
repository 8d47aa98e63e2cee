import { useCallback, useEffect, useState } from 'react';
import {
  checkDashUpdate,
  fetchDashUpdateStatus,
  fetchReleaseNotes,
  runDashUpdate,
  type DashUpdateCheck,
  type DashUpdateStatus,
  type UpdateChannel,
} from '../../api/dash-update';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnPrimary, btnSecondary, card, muted } from '../../components/ui';
import { s } from '../../i18n';
import { phaseProgress, updateAction } from '../../lib/dash-update';
import { useAsync } from '../../hooks/useAsync';

const t = s.admin.dashUpdate;
const POLL_MS = 2000;

function Row(props: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex flex-wrap gap-x-3 text-sm">
      <dt className={`w-40 ${muted}`}>{props.label}</dt>
      <dd data-testid={props.testId}>{props.children}</dd>
    </div>
  );
}

function LastJob(props: { job: DashUpdateStatus }) {
  const j = props.job;
  if (j.status === 'idle' || j.status === 'running') return null;
  const ok = j.status === 'completed';
  return (
    <div className="space-y-2" data-testid="dash-update-last-job">
      <Notice tone={ok ? 'ok' : 'warn'}>
        {ok
          ? t.completed(j.target_version ?? '', j.finished_at ?? '')
          : t.failed(
              j.target_version ?? '',
              t.failureCodes[j.failure_code ?? ''] ?? j.failure_code ?? '',
            )}
      </Notice>
      {j.log_tail && (
        <details>
          <summary className="cursor-pointer text-xs">{t.log}</summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-900">
            {j.log_tail}
          </pre>
        </details>
      )}
    </div>
  );
}

/** Admin settings: Dash's own version, the feed's newest release, update with progress. */
export function DashUpdatePanel(props: { channel: UpdateChannel }) {
  const initial = useAsync((signal) => fetchDashUpdateStatus(signal), []);
  const [polled, setStatus] = useState<DashUpdateStatus>();
  const [pollError, setStatusError] = useState<unknown>(null);
  const status = polled ?? initial.data;
  const statusError = polled ? pollError : initial.error;
  const [plan, setPlan] = useState<DashUpdateCheck>();
  const [notes, setNotes] = useState<string>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  /** Set once a job finished: Dash restarts, so status may briefly be unreachable. */
  const [restarting, setRestarting] = useState(false);

  const loadStatus = useCallback(async () => {
    try {
      const next = await fetchDashUpdateStatus();
      setStatus(next);
      setStatusError(null);
      return next;
    } catch (err) {
      setStatusError(err);
      return undefined;
    }
  }, []);

  const running = status?.status === 'running';
  useEffect(() => {
    if (!running && !restarting) return;
    const timer = setInterval(() => {
      void loadStatus().then((next) => {
        if (next && next.status !== 'running') setRestarting(false);
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, restarting, loadStatus]);

  const check = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await checkDashUpdate(props.channel);
      setPlan(result);
      setNotes(result.latest_version ? (await fetchReleaseNotes(props.channel)).html : undefined);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const run = async () => {
    if (!plan) return;
    setBusy(true);
    setError(null);
    try {
      setStatus(await runDashUpdate(updateAction(plan.version_status), plan));
      setRestarting(true);
      setPlan(undefined);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (!status) {
    return statusError !== null ? (
      <ErrorMessage error={statusError} onRetry={initial.reload} />
    ) : (
      <Loading />
    );
  }
  return (
    <section className={`${card} space-y-3 p-4`} aria-labelledby="dash-update-title">
      <h3 id="dash-update-title" className="text-base font-semibold">
        {t.title}
      </h3>
      <dl className="space-y-1">
        <Row label={t.current} testId="dash-update-current">
          {status.current_version}
        </Row>
        {plan && (
          <Row label={t.latest} testId="dash-update-latest">
            {plan.latest_version || t.none} · {t.versionStatus[plan.version_status]}
          </Row>
        )}
      </dl>
      {status.update_available_version && !plan && (
        <Notice tone="info">{t.notifyAvailable(status.update_available_version)}</Notice>
      )}
      {!status.available && (
        <Notice tone="warn">
          {t.unavailable}: {status.unavailable_reason}
        </Notice>
      )}
      {error !== null && <ErrorMessage error={error} />}
      {running && (
        <div className="space-y-1" data-testid="dash-update-progress">
          <p className="text-sm">{t.running(status.target_version ?? '', status.phase ?? '')}</p>
          <div
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phaseProgress(status.phase)}
            className="h-2 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-700"
          >
            <div
              className="h-full bg-sky-600"
              style={{ width: `${phaseProgress(status.phase)}%` }}
            />
          </div>
        </div>
      )}
      {!running && <LastJob job={status} />}
      {notes !== undefined && notes !== '' && (
        <div>
          <p className={`text-xs font-medium ${muted}`}>{t.notes}</p>
          {/* The server escapes every character of the notes before adding its own tags. */}
          <div
            className="prose prose-sm max-w-none text-sm dark:prose-invert"
            data-testid="dash-update-notes"
            dangerouslySetInnerHTML={{ __html: notes }}
          />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={btnSecondary}
          disabled={busy || running || !status.available}
          onClick={() => void check()}
        >
          {t.check}
        </button>
        {plan && plan.latest_version !== '' && (
          <button
            type="button"
            className={btnPrimary}
            disabled={busy || running}
            onClick={() => void run()}
          >
            {updateAction(plan.version_status) === 'update'
              ? t.update(plan.latest_version)
              : t.reinstall(plan.current_version)}
          </button>
        )}
      </div>
    </section>
  );
}
