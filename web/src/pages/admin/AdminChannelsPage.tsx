import { useState } from 'react';
import {
  deleteChannel,
  listChannels,
  setChannelEnabled,
  testChannel,
  type Channel,
} from '../../api/channels';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnDanger,
  btnPrimary,
  btnSecondary,
  card,
  muted,
  table,
  td,
  th,
} from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { ChannelDialog } from './ChannelDialog';
import { MtprotoLoginDialog } from './MtprotoLoginDialog';

const t = s.channels;

const statusTone: Record<string, string> = {
  healthy: 'text-emerald-700 dark:text-emerald-400',
  degraded: 'text-amber-700 dark:text-amber-400',
  disabled: 'text-slate-500',
  unknown: 'text-slate-500',
};

function Health(props: { c: Channel }) {
  const c = props.c;
  return (
    <div className="space-y-0.5">
      <span className={statusTone[c.delivery_status]}>{t.status[c.delivery_status]}</span>
      {c.last_error_code && (
        <div className={`text-xs ${muted}`} title={c.last_error ?? ''}>
          {c.last_error_code}
        </div>
      )}
      {c.blocked_count > 0 && <div className="text-xs">{t.blocked(c.blocked_count)}</div>}
      {c.next_retry_at && <div className={`text-xs ${muted}`}>{t.nextRetry(c.next_retry_at)}</div>}
      {c.next_probe_at && <div className={`text-xs ${muted}`}>{t.nextProbe(c.next_probe_at)}</div>}
    </div>
  );
}

/** Notification channels: list with delivery health, create/edit, test, enable, MTProto login. */
export function AdminChannelsPage() {
  const channels = useAsync((signal) => listChannels(signal), []);
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [login, setLogin] = useState<Channel | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const act = async (action: () => Promise<void>, done?: string) => {
    setError(null);
    setNotice(null);
    try {
      await action();
      if (done) setNotice(done);
    } catch (err) {
      setError(err);
    }
    channels.reload();
  };

  return (
    <section className="space-y-3" aria-labelledby="channels-title">
      <div className="flex items-center justify-between">
        <h1 id="channels-title" className="text-xl font-semibold">
          {t.title}
        </h1>
        <button type="button" className={btnPrimary} onClick={() => setEditing('new')}>
          {t.add}
        </button>
      </div>
      <p className={`text-sm ${muted}`}>{t.hint}</p>
      {error !== null && <ErrorMessage error={error} />}
      {notice !== null && <Notice tone="ok">{notice}</Notice>}
      {channels.error !== null && <ErrorMessage error={channels.error} onRetry={channels.reload} />}
      {channels.loading && !channels.data && <Loading />}
      {channels.data && channels.data.length === 0 && <p className={muted}>{t.empty}</p>}
      {channels.data && channels.data.length > 0 && (
        <div className={card}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{t.name}</th>
                <th className={th}>{t.type}</th>
                <th className={th}>{t.enabled}</th>
                <th className={th}>{t.health}</th>
                <th className={th}>{t.pending}</th>
                <th className={th}>{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {channels.data.map((c) => (
                <tr key={c.id}>
                  <td className={td}>{c.name}</td>
                  <td className={td}>
                    {t.types[c.type] ?? c.type}
                    {c.config?.mode === 'mtproto' ? ` (${t.modeMtproto})` : ''}
                  </td>
                  <td className={td}>
                    <input
                      type="checkbox"
                      aria-label={`${t.enabled}: ${c.name}`}
                      checked={c.enabled}
                      disabled={c.config === null}
                      onChange={(e) => void act(() => setChannelEnabled(c.id, e.target.checked))}
                    />
                  </td>
                  <td className={td}>
                    <Health c={c} />
                  </td>
                  <td className={td}>{c.pending_count}</td>
                  <td className={`${td} space-x-1 whitespace-nowrap`}>
                    {c.config === null ? (
                      <span className={`text-xs ${muted}`}>{t.invalidConfig}</span>
                    ) : (
                      <>
                        <button
                          type="button"
                          className={btnSecondary}
                          onClick={() => setEditing(c)}
                        >
                          {t.edit}
                        </button>
                        <button
                          type="button"
                          className={btnSecondary}
                          onClick={() => void act(() => testChannel(c.id), t.testSent(c.name))}
                        >
                          {t.test}
                        </button>
                        {c.config.mode === 'mtproto' && (
                          <button
                            type="button"
                            className={btnSecondary}
                            onClick={() => setLogin(c)}
                          >
                            {t.login}
                          </button>
                        )}
                      </>
                    )}
                    <button
                      type="button"
                      className={btnDanger}
                      onClick={() => {
                        if (window.confirm(t.confirmDelete(c.name))) {
                          void act(() => deleteChannel(c.id));
                        }
                      }}
                    >
                      {t.remove}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null && (
        <ChannelDialog
          {...(editing === 'new' ? {} : { channel: editing })}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            channels.reload();
          }}
        />
      )}
      {login !== null && (
        <MtprotoLoginDialog
          channel={login}
          onClose={() => setLogin(null)}
          onDone={() => {
            setLogin(null);
            channels.reload();
          }}
        />
      )}
    </section>
  );
}
