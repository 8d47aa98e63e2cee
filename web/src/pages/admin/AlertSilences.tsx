import { useState, type FormEvent } from 'react';
import {
  createSilence,
  deleteSilence,
  listSilences,
  type AlertMounts,
  type SilenceScope,
} from '../../api/alerts';
import { listGroups } from '../../api/admin-groups';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnDanger,
  btnPrimary,
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
import { formatDateTime } from '../../lib/format';

const t = s.alerts;

/** Admin → Alerts: silences of a node, a group or a rule until an end time; add and delete. */
export function SilencesSection(props: { mounts: AlertMounts }) {
  const silences = useAsync((signal) => listSilences(signal), []);
  const groups = useAsync((signal) => listGroups(signal), []);
  const [scope, setScope] = useState<SilenceScope>('node');
  const [target, setTarget] = useState('');
  const [minutes, setMinutes] = useState(60);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const targets: Array<{ id: number; name: string }> =
    scope === 'node'
      ? props.mounts.nodes.map((n) => ({ id: n.id, name: n.name }))
      : scope === 'group'
        ? (groups.data ?? []).map((g) => ({ id: g.id, name: g.name }))
        : props.mounts.rules.map((r) => ({ id: r.id, name: r.name }));
  const chosen = target !== '' ? target : String(targets[0]?.id ?? '');

  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (chosen === '') return;
    setBusy(true);
    setError(null);
    try {
      await createSilence({
        scope,
        target_id: Number(chosen),
        ends_at: new Date(Date.now() + minutes * 60_000).toISOString(),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setNote('');
      silences.reload();
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };

  const remove = async (id: number) => {
    if (!window.confirm(t.deleteSilenceConfirm)) return;
    setError(null);
    try {
      await deleteSilence(id);
      silences.reload();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section className="space-y-2" aria-labelledby="alert-silences-title">
      <h2 id="alert-silences-title" className="text-lg font-semibold">
        {t.silencesTitle}
      </h2>
      <p className={`text-sm ${muted}`}>{t.silencesHint}</p>
      {error !== null && <ErrorMessage error={error} />}
      <form onSubmit={add} className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="silence-scope" className={label}>
            {t.silenceScope}
          </label>
          <select
            id="silence-scope"
            className={input}
            value={scope}
            onChange={(e) => {
              setScope(e.target.value as SilenceScope);
              setTarget('');
            }}
          >
            {(['node', 'group', 'rule'] as const).map((sc) => (
              <option key={sc} value={sc}>
                {t.scopes[sc]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="silence-target" className={label}>
            {t.silenceTarget}
          </label>
          <select
            id="silence-target"
            className={input}
            value={chosen}
            onChange={(e) => setTarget(e.target.value)}
          >
            {targets.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="silence-for" className={label}>
            {t.silenceFor}
          </label>
          <select
            id="silence-for"
            className={input}
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          >
            {t.silenceDurations.map(([m, text]) => (
              <option key={m} value={m}>
                {text}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="silence-note" className={label}>
            {t.silenceNote}
          </label>
          <input
            id="silence-note"
            className={input}
            maxLength={255}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        <button type="submit" className={btnPrimary} disabled={busy || chosen === ''}>
          {t.addSilence}
        </button>
      </form>
      {silences.error !== null && <ErrorMessage error={silences.error} onRetry={silences.reload} />}
      {!silences.data && silences.loading && <Loading />}
      {silences.data && silences.data.items.length === 0 && <Notice>{t.noSilences}</Notice>}
      {silences.data && silences.data.items.length > 0 && (
        <div className={`${card} overflow-x-auto`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{t.silenceScope}</th>
                <th className={th}>{t.silenceTarget}</th>
                <th className={th}>{t.silenceEnds}</th>
                <th className={th}>{t.silenceNote}</th>
                <th className={th}>{t.status}</th>
                <th className={th}>
                  <span className="sr-only">{s.admin.nodes.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {silences.data.items.map((x) => (
                <tr key={x.id} data-silence-row={x.id}>
                  <td className={td}>{t.scopes[x.scope] ?? x.scope}</td>
                  <td className={`${td} font-medium`}>{x.target_name ?? `#${x.target_id}`}</td>
                  <td className={`${td} whitespace-nowrap`}>{formatDateTime(x.ends_at)}</td>
                  <td className={`${td} break-all`}>{x.note}</td>
                  <td className={td}>{x.active ? t.silenceActive : t.silenceExpired}</td>
                  <td className={`${td} text-right`}>
                    <button type="button" className={btnDanger} onClick={() => void remove(x.id)}>
                      {t.deleteSilence}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
