import { useState } from 'react';
import { useNavigate } from 'react-router';
import { listSessions, revokeAllSessions, revokeSession, type SessionItem } from '../api/auth';
import { useSession } from '../auth/context';
import { ErrorMessage, Loading, Notice } from '../components/Feedback';
import { btnDanger, btnSecondary, card, table, td, th } from '../components/ui';
import { useAsync } from '../hooks/useAsync';
import { s } from '../i18n';
import { formatDateTime } from '../lib/format';

export function SessionsPage() {
  const session = useSession();
  const navigate = useNavigate();
  const list = useAsync((signal) => listSessions(signal), []);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const act = async (fn: () => Promise<void>, endsMine: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      if (endsMine) {
        session.drop(false);
        void navigate('/login');
        return;
      }
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const revoke = (item: SessionItem) => act(() => revokeSession(item.id), item.current);
  const revokeAll = () => {
    if (window.confirm(s.sessions.confirmRevokeAll)) void act(revokeAllSessions, true);
  };

  return (
    <div className="mx-auto max-w-3xl space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-xl font-semibold">{s.sessions.title}</h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">{s.sessions.intro}</p>
        </div>
        <button type="button" className={btnDanger} disabled={busy} onClick={revokeAll}>
          {s.sessions.revokeAll}
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} />}
      {list.loading && !list.data && <Loading />}
      {list.error !== null && <ErrorMessage error={list.error} onRetry={list.reload} />}
      {list.data && list.data.length === 0 && <Notice>{s.sessions.empty}</Notice>}
      {list.data && list.data.length > 0 && (
        <div className={`${card} overflow-x-auto`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{s.sessions.id}</th>
                <th className={th}>{s.sessions.kind}</th>
                <th className={th}>{s.sessions.expires}</th>
                <th className={th}>
                  <span className="sr-only">{s.admin.nodes.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((item) => (
                <tr key={item.id}>
                  <td className={`${td} font-mono text-xs break-all`}>
                    {item.id}
                    {item.current && (
                      <span className="ml-2 rounded bg-sky-100 px-1.5 text-[11px] font-sans text-sky-800 dark:bg-sky-900 dark:text-sky-100">
                        {s.sessions.current}
                      </span>
                    )}
                  </td>
                  <td className={td}>
                    {item.session_only ? s.sessions.sessionOnly : s.sessions.persistent}
                  </td>
                  <td className={`${td} tabular-nums`}>{formatDateTime(item.expires_at)}</td>
                  <td className={`${td} text-right`}>
                    <button
                      type="button"
                      className={btnSecondary}
                      disabled={busy}
                      onClick={() => void revoke(item)}
                    >
                      {s.sessions.revoke}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
