import { useEffect, useState } from 'react';
import { listNodes } from '../../api/admin-nodes';
import {
  fetchTrafficSettings,
  patchTrafficSettings,
  type TrafficSettings,
  type TrafficSettingsPatch,
} from '../../api/settings';
import { fetchRebuildState, startRebuild, type RebuildState } from '../../api/traffic';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnSecondary, card, input, label, muted } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { rebuildProgress } from '../../lib/traffic';

const t = s.traffic;

function SettingsForm(props: { settings: TrafficSettings; onSaved: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const save = async (patch: TrafficSettingsPatch) => {
    setError(null);
    try {
      await patchTrafficSettings(patch);
      props.onSaved();
    } catch (err) {
      setError(err);
    }
  };
  const st = props.settings;
  return (
    <section className={`${card} space-y-3 p-3`} aria-label={t.admin.settings}>
      <h2 className="font-semibold">{t.admin.settings}</h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <label htmlFor="traffic-usage" className={label}>
            {t.admin.usageMode}
          </label>
          <select
            id="traffic-usage"
            className={input}
            value={st.usage_mode}
            onChange={(e) => void save({ usage_mode: e.target.value })}
          >
            <option value="lite">{t.usageModes.lite}</option>
            <option value="billing">{t.usageModes.billing}</option>
          </select>
        </div>
        <div>
          <label htmlFor="traffic-direction" className={label}>
            {t.admin.direction}
          </label>
          <select
            id="traffic-direction"
            className={input}
            value={st.direction_mode}
            onChange={(e) => void save({ direction_mode: e.target.value })}
          >
            {(['out', 'both', 'max'] as const).map((d) => (
              <option key={d} value={d}>
                {t.directions[d]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="traffic-guest-mode" className={label}>
            {t.admin.guest}
          </label>
          <select
            id="traffic-guest-mode"
            className={input}
            value={st.guest_access_mode}
            onChange={(e) =>
              void save({
                guest_access_mode: e.target.value,
              })
            }
          >
            <option value="disabled">{s.admin.settings.guestModes.disabled}</option>
            <option value="by_node">{s.admin.settings.guestModes.by_node}</option>
          </select>
        </div>
      </div>
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}

function stateText(state: RebuildState, names: Map<number, string>): string {
  const node = names.get(state.server_id) ?? `#${state.server_id}`;
  if (state.status === 'running') {
    const pct = `${Math.round(rebuildProgress(state.chunks_done, state.chunks_total) * 100)}%`;
    return t.admin.state.running(node, pct);
  }
  if (state.status === 'completed') return t.admin.state.completed(node);
  if (state.status === 'failed') {
    return `${t.admin.state.failed(node)} ${s.errors.byCode[state.code ?? ''] ?? state.error ?? ''}`;
  }
  return t.admin.state.idle;
}

function Rebuild(props: { billing: boolean }) {
  const nodes = useAsync((sig) => listNodes(sig), []);
  const [state, setState] = useState<RebuildState | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [nodeId, setNodeId] = useState<number | undefined>();

  // Poll the state while a task runs (and once on load).
  const running = state?.running ?? false;
  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      fetchRebuildState(ctrl.signal).then(
        (next) => {
          setState(next);
          if (next.running) timer = setTimeout(poll, 1000);
        },
        () => undefined,
      );
    };
    poll();
    return () => {
      ctrl.abort();
      if (timer) clearTimeout(timer);
    };
  }, [running]);

  if (!nodes.data) {
    return nodes.error ? <ErrorMessage error={nodes.error} /> : <Loading />;
  }
  const names = new Map(nodes.data.map((n) => [n.id, n.name]));
  const chosen = nodeId ?? nodes.data[0]?.id;
  const start = async () => {
    if (chosen === undefined) return;
    setError(null);
    try {
      setState(await startRebuild(chosen));
    } catch (err) {
      setError(err);
    }
  };
  const progress = state
    ? rebuildProgress(state.chunks_done, state.chunks_total, state.status === 'completed')
    : 0;
  return (
    <section className={`${card} space-y-3 p-3`} aria-label={t.admin.rebuild}>
      <h2 className="font-semibold">{t.admin.rebuild}</h2>
      <p className={`text-sm ${muted}`}>{t.admin.rebuildHelp}</p>
      {!props.billing && <Notice>{s.errors.byCode.traffic_rebuild_requires_billing}</Notice>}
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="rebuild-node" className={label}>
            {s.nav.nodes}
          </label>
          <select
            id="rebuild-node"
            className={input}
            value={chosen ?? ''}
            onChange={(e) => setNodeId(Number(e.target.value))}
          >
            {nodes.data.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={btnSecondary}
          disabled={!props.billing || running || chosen === undefined}
          onClick={() => void start()}
        >
          {t.admin.rebuildButton}
        </button>
      </div>
      {state && (
        <div className="space-y-1" data-testid="rebuild-state">
          <p className="text-sm">{stateText(state, names)}</p>
          {state.status !== 'idle' && (
            <div
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              className="h-2 w-full rounded bg-slate-200 dark:bg-slate-700"
            >
              <div className="h-2 rounded bg-sky-600" style={{ width: `${progress * 100}%` }} />
            </div>
          )}
        </div>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}

/** /admin/traffic — global traffic settings and per-node fact rebuilds. */
export function AdminTrafficPage() {
  const settings = useAsync((sig) => fetchTrafficSettings(sig), []);
  if (!settings.data) {
    return settings.error ? (
      <ErrorMessage error={settings.error} onRetry={settings.reload} />
    ) : (
      <Loading />
    );
  }
  return (
    <div className="space-y-4">
      <SettingsForm settings={settings.data} onSaved={settings.reload} />
      <Rebuild billing={settings.data.usage_mode === 'billing'} />
    </div>
  );
}
