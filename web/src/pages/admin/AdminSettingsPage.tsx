import { useState, type FormEvent } from 'react';
import { GUEST_MODES, oneOf, type GuestMode } from '../../api/metrics';
import {
  fetchSystemSettings,
  fetchTrafficSettings,
  patchSystemSettings,
  patchTrafficSettings,
  type SystemSettings,
  type TrafficSettings,
} from '../../api/settings';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnPrimary, card, input, label } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { settingsPatch, slaProblem } from '../../lib/settings-form';
import { useResources } from '../../state/resources';
import { DashUpdatePanel } from './DashUpdatePanel';
import { StoragePanel } from './StoragePanel';

const t = s.admin.settings;

function Block(props: { title: string; children: React.ReactNode; hint?: string }) {
  return (
    <fieldset className={`${card} space-y-3 p-4`}>
      <legend className="px-1 text-base font-semibold">{props.title}</legend>
      {props.hint && <p className="text-xs text-slate-500 dark:text-slate-400">{props.hint}</p>}
      {props.children}
    </fieldset>
  );
}

function Field(props: { id: string; label: string; children: React.ReactNode; hint?: string }) {
  return (
    <div>
      <label htmlFor={props.id} className={label}>
        {props.label}
      </label>
      {props.children}
      {props.hint && (
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{props.hint}</p>
      )}
    </div>
  );
}

function GuestSelect(props: { id: string; value: GuestMode; onChange: (v: GuestMode) => void }) {
  return (
    <select
      id={props.id}
      className={input}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as GuestMode)}
    >
      {(Object.keys(t.guestModes) as GuestMode[]).map((m) => (
        <option key={m} value={m}>
          {t.guestModes[m]}
        </option>
      ))}
    </select>
  );
}

function SettingsForm(props: {
  system: SystemSettings;
  /** Traffic settings live in another area; the rest of the page works without them. */
  traffic: TrafficSettings | undefined;
  trafficError: unknown;
  onSaved: () => void;
}) {
  const resources = useResources();
  const [form, setForm] = useState(props.system);
  const [trafficGuest, setTrafficGuest] = useState<GuestMode | undefined>(
    props.traffic && oneOf(props.traffic.guest_access_mode, GUEST_MODES, 'disabled'),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof SystemSettings>(k: K, v: SystemSettings[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [k]: v }));
  };
  const problem = slaProblem(form.uptime_warning_sla, form.uptime_error_sla);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (problem) return;
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const patch = settingsPatch(props.system, form);
      if (patch) await patchSystemSettings(patch);
      if (props.traffic && trafficGuest && trafficGuest !== props.traffic.guest_access_mode) {
        await patchTrafficSettings({ guest_access_mode: trafficGuest });
      }
      setSaved(true);
      resources.brand.reload();
      resources.uptime.reload();
      resources.access.reload();
      props.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {error !== null && <ErrorMessage error={error} />}
      {saved && <Notice tone="ok">{s.app.saved}</Notice>}
      <Block title={t.brand}>
        <Field id="logo-url" label={t.logoUrl} hint={t.logoHint}>
          <input
            id="logo-url"
            className={input}
            value={form.logo_url}
            onChange={(e) => set('logo_url', e.target.value)}
          />
        </Field>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="page-title" label={t.pageTitle}>
            <input
              id="page-title"
              className={input}
              maxLength={120}
              value={form.page_title}
              onChange={(e) => set('page_title', e.target.value)}
            />
          </Field>
          <Field id="topbar-text" label={t.topbarText}>
            <input
              id="topbar-text"
              className={input}
              maxLength={64}
              value={form.topbar_text}
              onChange={(e) => set('topbar_text', e.target.value)}
            />
          </Field>
        </div>
      </Block>
      <Block title={t.sla} hint={t.slaHint}>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="warning-sla" label={t.warningSla}>
            <input
              id="warning-sla"
              type="number"
              step="0.01"
              min={0}
              max={100}
              className={input}
              value={Number.isFinite(form.uptime_warning_sla) ? form.uptime_warning_sla : ''}
              onChange={(e) => set('uptime_warning_sla', e.target.valueAsNumber)}
            />
          </Field>
          <Field id="error-sla" label={t.errorSla}>
            <input
              id="error-sla"
              type="number"
              step="0.01"
              min={0}
              max={100}
              className={input}
              value={Number.isFinite(form.uptime_error_sla) ? form.uptime_error_sla : ''}
              onChange={(e) => set('uptime_error_sla', e.target.valueAsNumber)}
            />
          </Field>
        </div>
        {problem && <p className="text-sm text-rose-600">{problem}</p>}
      </Block>
      <Block title={t.guest}>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={form.uptime_guest_visible}
            onChange={(e) => set('uptime_guest_visible', e.target.checked)}
          />
          {t.uptimeGuest}
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="history-guest" label={t.historyGuest}>
            <GuestSelect
              id="history-guest"
              value={form.history_guest_access_mode}
              onChange={(v) => set('history_guest_access_mode', v)}
            />
          </Field>
          {trafficGuest ? (
            <Field id="traffic-guest" label={t.trafficGuest}>
              <GuestSelect
                id="traffic-guest"
                value={trafficGuest}
                onChange={(v) => {
                  setSaved(false);
                  setTrafficGuest(v);
                }}
              />
            </Field>
          ) : (
            props.trafficError !== null && (
              <div>
                <p className={label}>{t.trafficGuest}</p>
                <ErrorMessage error={props.trafficError} />
              </div>
            )
          )}
        </div>
      </Block>
      <Block title={t.updates}>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id="update-channel" label={t.updateChannel}>
            <select
              id="update-channel"
              className={input}
              value={form.dash_update_channel}
              onChange={(e) =>
                set('dash_update_channel', e.target.value as SystemSettings['dash_update_channel'])
              }
            >
              {(Object.keys(t.channels) as SystemSettings['dash_update_channel'][]).map((c) => (
                <option key={c} value={c}>
                  {t.channels[c]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="update-mode" label={t.updateMode}>
            <select
              id="update-mode"
              className={input}
              value={form.dash_update_mode}
              onChange={(e) =>
                set('dash_update_mode', e.target.value as SystemSettings['dash_update_mode'])
              }
            >
              {(Object.keys(t.modes) as SystemSettings['dash_update_mode'][]).map((m) => (
                <option key={m} value={m}>
                  {t.modes[m]}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </Block>
      <div className="flex justify-end">
        <button type="submit" className={btnPrimary} disabled={busy || !!problem}>
          {s.app.save}
        </button>
      </div>
    </form>
  );
}

export function AdminSettingsPage() {
  const system = useAsync((signal) => fetchSystemSettings(signal), []);
  const traffic = useAsync((signal) => fetchTrafficSettings(signal), []);
  const ready = system.data && (traffic.data || traffic.error !== null);
  return (
    <div className="max-w-3xl space-y-3">
      <h2 className="text-lg font-semibold">{t.title}</h2>
      {!ready && system.error === null && <Loading />}
      {system.error !== null && !system.data && (
        <ErrorMessage error={system.error} onRetry={system.reload} />
      )}
      {ready && system.data && (
        <SettingsForm
          system={system.data}
          traffic={traffic.data}
          trafficError={traffic.error}
          onSaved={() => {
            system.reload();
            traffic.reload();
          }}
        />
      )}
      {system.data && <DashUpdatePanel channel={system.data.dash_update_channel} />}
      {system.data && <StoragePanel />}
    </div>
  );
}
