import { useState } from 'react';
import {
  deleteAlertRule,
  getAlertMounts,
  getAlertSettings,
  listAlertRules,
  putAlertSettings,
  setAlertMounts,
  type AlertMounts,
  type AlertRule,
} from '../../api/alerts';
import { listGroups } from '../../api/admin-groups';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnDanger,
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
import { AlertRuleDialog } from './AlertRuleDialog';
import { SilencesSection } from './AlertSilences';

const t = s.alerts;

function condition(r: {
  operator: string;
  threshold: number;
  threshold_mode?: string;
  threshold_offset?: number;
  clear_threshold?: number | null;
}) {
  const shown = (v: number) =>
    r.threshold_mode === 'core_plus' ? `cores + ${v + (r.threshold_offset ?? 0)}` : String(v);
  const base = `${r.operator} ${shown(r.threshold)}`;
  const clear = r.clear_threshold;
  return clear === undefined || clear === null ? base : `${base} (${t.clearAt(shown(clear))})`;
}

function MountsSection(props: { mounts: AlertMounts; onChanged: () => void }) {
  const groups = useAsync((signal) => listGroups(signal), []);
  const [ruleId, setRuleId] = useState<number>(props.mounts.rules[0]?.id ?? -1);
  const [groupId, setGroupId] = useState<string>('all');
  const [error, setError] = useState<unknown>(null);
  const rule = props.mounts.rules.find((r) => r.id === ruleId) ?? props.mounts.rules[0];
  if (!rule) return null;

  const apply = async (serverIds: number[], mounted: boolean) => {
    if (serverIds.length === 0) return;
    setError(null);
    try {
      await setAlertMounts([rule.id], serverIds, mounted);
      props.onChanged();
    } catch (err) {
      setError(err);
    }
  };
  const groupNodes = props.mounts.nodes
    .filter((n) => groupId === 'all' || n.group_ids.includes(Number(groupId)))
    .map((n) => n.id);

  return (
    <section className="space-y-2" aria-labelledby="alert-mounts-title">
      <h2 id="alert-mounts-title" className="text-lg font-semibold">
        {t.mountsTitle}
      </h2>
      <p className={`text-sm ${muted}`}>{t.mountsHint}</p>
      {error !== null && <ErrorMessage error={error} />}
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="mount-rule" className={label}>
            {t.mountRule}
          </label>
          <select
            id="mount-rule"
            className={input}
            value={rule.id}
            onChange={(e) => setRuleId(Number(e.target.value))}
          >
            {props.mounts.rules.map((r) => (
              <option key={r.id} value={r.id}>
                {r.builtin ? `${r.name} (${t.builtin})` : r.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="mount-group" className={label}>
            {t.mountGroup}
          </label>
          <select
            id="mount-group"
            className={input}
            value={groupId}
            onChange={(e) => setGroupId(e.target.value)}
          >
            <option value="all">{t.allNodes}</option>
            {groups.data?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={btnSecondary} onClick={() => void apply(groupNodes, true)}>
          {t.mountOn}
        </button>
        <button
          type="button"
          className={btnSecondary}
          onClick={() => void apply(groupNodes, false)}
        >
          {t.mountOff}
        </button>
      </div>
      {props.mounts.nodes.length > 0 && (
        <ul className={`${card} divide-y divide-slate-100 dark:divide-slate-700`}>
          {props.mounts.nodes.map((n) => {
            const mounted = n.mounts.find((m) => m.rule_id === rule.id)?.mounted ?? false;
            return (
              <li key={n.id} className="px-3 py-1.5">
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={mounted}
                    aria-label={t.mountedOn(n.name)}
                    onChange={(e) => void apply([n.id], e.target.checked)}
                  />
                  <span className="font-medium">{n.name}</span>
                  <span className={muted}>{n.hostname}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function SettingsSection() {
  const settings = useAsync((signal) => getAlertSettings(signal), []);
  const [error, setError] = useState<unknown>(null);
  const [draft, setDraft] = useState<Record<string, string> | null>(null);
  if (!settings.data) {
    return settings.error !== null ? <ErrorMessage error={settings.error} /> : null;
  }
  const data = settings.data;
  const values = draft ?? {
    repeat_max: String(data.repeat_max),
    flap_threshold: String(data.flap_threshold),
    flap_window_min: String(data.flap_window_min),
  };
  const save = async (enabled: boolean, extra = values) => {
    setError(null);
    try {
      await putAlertSettings(enabled, data.channel_ids, {
        repeat_max: Number(extra.repeat_max),
        flap_threshold: Number(extra.flap_threshold),
        flap_window_min: Number(extra.flap_window_min),
      });
      setDraft(null);
      settings.reload();
    } catch (err) {
      setError(err);
    }
  };
  const field = (key: string, text: string, min: number, max: number) => (
    <div>
      <label htmlFor={`alert-${key}`} className={label}>
        {text}
      </label>
      <input
        id={`alert-${key}`}
        type="number"
        min={min}
        max={max}
        className={input}
        value={values[key]}
        onChange={(e) => setDraft({ ...values, [key]: e.target.value })}
      />
    </div>
  );
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{t.settingsTitle}</h2>
      {error !== null && <ErrorMessage error={error} />}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={data.enabled}
          onChange={(e) => void save(e.target.checked)}
        />
        {t.notifyEnabled}
      </label>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void save(data.enabled);
        }}
      >
        {field('repeat_max', t.repeatMaxSetting, 0, 100)}
        {field('flap_threshold', t.flapThreshold, 0, 100)}
        {field('flap_window_min', t.flapWindow, 1, 1440)}
        <button type="submit" className={btnSecondary} disabled={draft === null}>
          {t.saveSettings}
        </button>
      </form>
      <p className={`text-xs ${muted}`}>{t.flapHint}</p>
    </section>
  );
}

/** Admin → Alerts: user rules, built-in rules, where each rule applies, notifications switch. */
export function AdminAlertsPage() {
  const rules = useAsync((signal) => listAlertRules(signal), []);
  const mounts = useAsync((signal) => getAlertMounts(signal), []);
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const changed = () => {
    rules.reload();
    mounts.reload();
  };
  const remove = async (r: AlertRule) => {
    if (!window.confirm(t.deleteConfirm(r.name))) return;
    setError(null);
    try {
      await deleteAlertRule(r.id);
      changed();
    } catch (err) {
      setError(err);
    }
  };
  const builtins = mounts.data?.rules.filter((r) => r.builtin) ?? [];

  return (
    <div className="space-y-6">
      <section className="space-y-3">
        <div className="flex items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t.rulesTitle}</h2>
          <button type="button" className={btnPrimary} onClick={() => setEditing('new')}>
            {t.addRule}
          </button>
        </div>
        {error !== null && <ErrorMessage error={error} />}
        {rules.loading && !rules.data && <Loading />}
        {rules.error !== null && <ErrorMessage error={rules.error} onRetry={rules.reload} />}
        {rules.data && rules.data.length === 0 && <Notice>{t.noRules}</Notice>}
        <div className={`${card} overflow-x-auto`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{t.name}</th>
                <th className={th}>{t.metric}</th>
                <th className={th}>{t.condition}</th>
                <th className={th}>{t.duration}</th>
                <th className={th}>{t.cooldown}</th>
                <th className={th}>{t.status}</th>
                <th className={th}>
                  <span className="sr-only">{s.admin.nodes.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.data?.map((r) => (
                <tr key={r.id} data-rule-row={r.id}>
                  <td className={`${td} font-medium break-all`}>{r.name}</td>
                  <td className={`${td} font-mono text-xs`}>{r.metric}</td>
                  <td className={`${td} tabular-nums`}>{condition(r)}</td>
                  <td className={td}>{t.durationOption(r.duration_sec)}</td>
                  <td className={`${td} tabular-nums`}>{r.cooldown_min}</td>
                  <td className={td}>{r.enabled ? t.enabled : t.disabled}</td>
                  <td className={`${td} space-x-2 text-right whitespace-nowrap`}>
                    <button type="button" className={btnSecondary} onClick={() => setEditing(r)}>
                      {s.app.edit}
                    </button>
                    <button type="button" className={btnDanger} onClick={() => void remove(r)}>
                      {s.app.delete}
                    </button>
                  </td>
                </tr>
              ))}
              {builtins.map((r) => (
                <tr key={r.id} data-rule-row={r.id} title={t.builtinNote}>
                  <td className={`${td} font-medium`}>
                    {r.name} <span className={`text-xs ${muted}`}>({t.builtin})</span>
                  </td>
                  <td className={`${td} font-mono text-xs`}>{r.metric}</td>
                  <td className={`${td} tabular-nums`}>{'>= 1'}</td>
                  <td className={td}>{t.durationOption(0)}</td>
                  <td className={`${td} tabular-nums`}>{r.id === -1 ? 0 : 30}</td>
                  <td className={td}>{t.enabled}</td>
                  <td className={td} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className={`text-xs ${muted}`}>{t.builtinNote}</p>
      </section>
      {mounts.error !== null && <ErrorMessage error={mounts.error} onRetry={mounts.reload} />}
      {mounts.data && <MountsSection mounts={mounts.data} onChanged={mounts.reload} />}
      {mounts.data && <SilencesSection mounts={mounts.data} />}
      <SettingsSection />
      {editing !== null && (
        <AlertRuleDialog
          rule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={changed}
        />
      )}
    </div>
  );
}
