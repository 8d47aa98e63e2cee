import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  ackAlertEvent,
  ALERT_METRICS,
  alertServers,
  alertSummary,
  listAlertEvents,
  type AlertEvent,
  type AlertEventQuery,
  type AlertWhy,
} from '../../api/alerts';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnPrimary,
  btnSecondary,
  card,
  input,
  label,
  muted,
  table,
  td,
  th,
} from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { formatDateTime, formatNumber } from '../../lib/format';

const t = s.alerts;

/** "Why it fired" from the stored detail: the values, their range and the window. */
function whyText(w: AlertWhy): string {
  const n = (v: number) => String(Math.round(v * 10_000) / 10_000);
  const values = w.values.map(n).join(', ');
  const line = t.whyLine(values, formatDateTime(w.from), formatDateTime(w.to), w.samples);
  const parts = [`${w.operator} ${n(w.threshold)}`, line];
  if (w.samples > 1) parts.push(t.whyRange(n(w.min), n(w.max)));
  if (w.clear_threshold !== undefined) parts.push(t.clearAt(n(w.clear_threshold)));
  return parts.join(' · ');
}

const badge = 'rounded px-1.5 py-0.5 text-xs font-medium';

/** `datetime-local` text (browser time zone) to RFC 3339, or undefined when empty. */
function toRfc3339(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function Summary(props: { names: ReadonlyMap<number, string> }) {
  const summary = useAsync((signal) => alertSummary(signal), []);
  if (summary.error !== null) {
    return <ErrorMessage error={summary.error} onRetry={summary.reload} />;
  }
  if (!summary.data) return <Loading />;
  return (
    <section className="space-y-2" aria-labelledby="alert-summary-title">
      <h2 id="alert-summary-title" className="text-lg font-semibold">
        {t.summaryTitle}
      </h2>
      {summary.data.items.length === 0 ? (
        <Notice tone="ok">{t.noOpen}</Notice>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {summary.data.items.map((i) => (
            <li key={i.server_id} className={`${card} p-3 text-sm`} data-summary-node={i.server_id}>
              <p className="font-medium">
                {props.names.get(i.server_id) ?? `#${i.server_id}`} ·{' '}
                <span className="text-rose-700 dark:text-rose-300">
                  {t.openCount(i.open_count)}
                </span>
              </p>
              <p className={muted}>
                {i.rule_name} · {formatDateTime(i.last_trigger_at)}
              </p>
              <p className="font-mono text-xs break-all">{i.metrics.join(', ')}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One query's pages: the first from useAsync, further pages appended by "Load more". */
function EventsList(props: { query: AlertEventQuery }) {
  const first = useAsync(
    (signal) => listAlertEvents(props.query, signal),
    [JSON.stringify(props.query)],
  );
  const [extra, setExtra] = useState<AlertEvent[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [moreError, setMoreError] = useState<unknown>(null);
  const [acked, setAcked] = useState<Record<number, string>>({});
  const [ackError, setAckError] = useState<unknown>(null);
  const items = [...(first.data?.items ?? []), ...extra].map((e) =>
    acked[e.id] && !e.acked_at ? { ...e, acked_at: acked[e.id] } : e,
  );
  const ack = async (id: number) => {
    setAckError(null);
    try {
      await ackAlertEvent(id);
      setAcked((prev) => ({ ...prev, [id]: new Date().toISOString() }));
    } catch (err) {
      setAckError(err);
    }
  };
  const cursor = nextCursor === undefined ? (first.data?.next_cursor ?? null) : nextCursor;
  const loading = first.loading || busy;
  const error = first.error ?? moreError ?? ackError;

  const more = async () => {
    if (!cursor) return;
    setBusy(true);
    setMoreError(null);
    try {
      const page = await listAlertEvents({ ...props.query, cursor });
      setExtra((prev) => [...prev, ...page.items]);
      setNextCursor(page.next_cursor);
    } catch (err) {
      setMoreError(err);
    }
    setBusy(false);
  };

  return (
    <>
      {error !== null && <ErrorMessage error={error} />}
      {loading && items.length === 0 && <Loading />}
      {!loading && items.length === 0 && error === null && <Notice>{t.noEvents}</Notice>}
      {items.length > 0 && (
        <div className={`${card} overflow-x-auto`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{t.node}</th>
                <th className={th}>{t.mountRule}</th>
                <th className={th}>{t.status}</th>
                <th className={th}>{t.value}</th>
                <th className={th}>{t.firstTrigger}</th>
                <th className={th}>{t.lastTrigger}</th>
                <th className={th}>{t.closedAt}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-event-row={e.id}>
                  <td className={`${td} font-medium`}>{e.server_name}</td>
                  <td className={td}>
                    <div>{e.rule_name}</div>
                    <div className="font-mono text-xs">{e.metric}</div>
                    {(e.why || e.message) && (
                      <div className={`text-xs ${muted}`} title={t.why} data-why>
                        {e.why ? whyText(e.why) : e.message}
                      </div>
                    )}
                  </td>
                  <td className={td}>
                    {e.status === 'open' ? (
                      <span
                        className={`${badge} bg-rose-100 text-rose-800 dark:bg-rose-900 dark:text-rose-100`}
                      >
                        {t.statusOpen}
                      </span>
                    ) : (
                      <span className={`text-xs ${muted}`}>
                        {t.statusClosed}
                        {e.close_reason ? ` · ${t.reasons[e.close_reason] ?? e.close_reason}` : ''}
                      </span>
                    )}
                    <div className="mt-1 flex flex-wrap gap-1">
                      {e.silenced && (
                        <span className={`${badge} bg-slate-200 dark:bg-slate-700`}>
                          {t.silencedBadge}
                        </span>
                      )}
                      {e.flapping && (
                        <span
                          className={`${badge} bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100`}
                        >
                          {t.flappingBadge}
                        </span>
                      )}
                    </div>
                    {e.repeat_count > 0 && (
                      <div className={`text-xs ${muted}`}>{t.repeats(e.repeat_count)}</div>
                    )}
                    {e.acked_at ? (
                      <div className={`text-xs ${muted}`}>
                        {t.acked(formatDateTime(e.acked_at))}
                      </div>
                    ) : (
                      e.status === 'open' && (
                        <button
                          type="button"
                          className={`${btnSecondary} mt-1`}
                          onClick={() => void ack(e.id)}
                        >
                          {t.ack}
                        </button>
                      )
                    )}
                  </td>
                  <td className={`${td} tabular-nums`}>
                    {e.current_value !== undefined ? formatNumber(e.current_value, 4) : s.app.none}
                    {e.effective_threshold !== undefined && (
                      <span className={`text-xs ${muted}`}>
                        {' '}
                        / {formatNumber(e.effective_threshold, 4)}
                      </span>
                    )}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>
                    {formatDateTime(e.first_trigger_at)}
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.last_trigger_at)}</td>
                  <td className={`${td} whitespace-nowrap`}>
                    {e.closed_at ? formatDateTime(e.closed_at) : s.app.none}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <button
          type="button"
          className={btnSecondary}
          disabled={loading}
          onClick={() => void more()}
        >
          {t.loadMore}
        </button>
      )}
    </>
  );
}

/** Admin → Alert events: open-alert summary, filters, and the keyset-paged event list. */
export function AdminAlertEventsPage() {
  const servers = useAsync((signal) => alertServers(signal), []);
  // the dashboard badge links here with ?server_id=<node>
  const [params] = useSearchParams();
  const initialServer = /^\d+$/.test(params.get('server_id') ?? '') ? params.get('server_id')! : '';
  const [draft, setDraft] = useState({
    status: 'open',
    server: initialServer,
    metric: '',
    from: '',
    to: '',
  });
  const [query, setQuery] = useState<AlertEventQuery>({
    status: 'open',
    ...(initialServer ? { server_id: initialServer } : {}),
  });
  // Apply also refreshes an unchanged query: every submit starts a new list
  const [round, setRound] = useState(0);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setRound((r) => r + 1);
    setQuery({
      status: draft.status,
      ...(draft.server ? { server_id: draft.server } : {}),
      ...(draft.metric ? { metric: draft.metric } : {}),
      ...(toRfc3339(draft.from) ? { from: toRfc3339(draft.from) } : {}),
      ...(toRfc3339(draft.to) ? { to: toRfc3339(draft.to) } : {}),
    });
  };

  return (
    <div className="space-y-6">
      <Summary names={new Map(servers.data?.items.map((n) => [n.id, n.name]))} />
      <section className="space-y-3" aria-labelledby="alert-events-title">
        <h2 id="alert-events-title" className="text-lg font-semibold">
          {t.eventsTitle}
        </h2>
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="ev-status" className={label}>
              {t.status}
            </label>
            <select
              id="ev-status"
              className={input}
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.target.value })}
            >
              <option value="open">{t.statusOpen}</option>
              <option value="closed">{t.statusClosed}</option>
              <option value="all">{t.statusAll}</option>
            </select>
          </div>
          <div>
            <label htmlFor="ev-node" className={label}>
              {t.node}
            </label>
            <select
              id="ev-node"
              className={input}
              value={draft.server}
              onChange={(e) => setDraft({ ...draft, server: e.target.value })}
            >
              <option value="">{t.anyNode}</option>
              {servers.data?.items.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="ev-metric" className={label}>
              {t.metric}
            </label>
            <select
              id="ev-metric"
              className={input}
              value={draft.metric}
              onChange={(e) => setDraft({ ...draft, metric: e.target.value })}
            >
              <option value="">{t.anyMetric}</option>
              {ALERT_METRICS.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="ev-from" className={label}>
              {t.from}
            </label>
            <input
              id="ev-from"
              type="datetime-local"
              className={input}
              value={draft.from}
              onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            />
          </div>
          <div>
            <label htmlFor="ev-to" className={label}>
              {t.to}
            </label>
            <input
              id="ev-to"
              type="datetime-local"
              className={input}
              value={draft.to}
              onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            />
          </div>
          <button type="submit" className={btnPrimary}>
            {t.apply}
          </button>
        </form>
        <EventsList key={`${JSON.stringify(query)}#${round}`} query={query} />
      </section>
    </div>
  );
}
