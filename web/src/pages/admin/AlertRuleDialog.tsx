import { useState, type FormEvent } from 'react';
import {
  ALERT_DURATIONS,
  ALERT_METRICS,
  ALERT_OPERATORS,
  CORE_PLUS_METRICS,
  createAlertRule,
  updateAlertRule,
  type AlertRule,
  type AlertRuleInput,
} from '../../api/alerts';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/Feedback';
import { btnPrimary, btnSecondary, input, label } from '../../components/ui';
import { s } from '../../i18n';

const t = s.alerts;

/** Create or edit a user rule: metric from the catalog, condition, duration and cooldown. */
export function AlertRuleDialog(props: {
  rule: AlertRule | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const r = props.rule;
  const [form, setForm] = useState<AlertRuleInput>({
    name: r?.name ?? '',
    enabled: r?.enabled ?? true,
    metric: r?.metric ?? 'cpu.usage_ratio',
    operator: r?.operator ?? '>',
    threshold: r?.threshold ?? 0.9,
    duration_sec: r?.duration_sec ?? 60,
    cooldown_min: r?.cooldown_min ?? 0,
    threshold_mode: r?.threshold_mode ?? 'static',
    threshold_offset: r?.threshold_offset ?? 0,
    clear_threshold: r?.clear_threshold ?? null,
    repeat_interval_min: r?.repeat_interval_min ?? 0,
    repeat_max: r?.repeat_max ?? null,
  });
  const [threshold, setThreshold] = useState(String(form.threshold));
  const [clear, setClear] = useState(
    form.clear_threshold === null ? '' : String(form.clear_threshold),
  );
  const [repeatMax, setRepeatMax] = useState(
    form.repeat_max === null ? '' : String(form.repeat_max),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = <K extends keyof AlertRuleInput>(k: K, v: AlertRuleInput[K]) =>
    setForm((f) => ({ ...f, [k]: v }));
  const corePlusAllowed = CORE_PLUS_METRICS.includes(form.metric);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body: AlertRuleInput = {
      ...form,
      name: form.name.trim(),
      threshold: Number(threshold),
      clear_threshold: clear.trim() === '' ? null : Number(clear),
      repeat_max: repeatMax.trim() === '' ? null : Number(repeatMax),
      threshold_mode: corePlusAllowed ? form.threshold_mode : 'static',
      threshold_offset:
        corePlusAllowed && form.threshold_mode === 'core_plus' ? form.threshold_offset : 0,
    };
    try {
      if (r) await updateAlertRule(r.id, body);
      else await createAlertRule(body);
      props.onSaved();
      props.onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog title={r ? t.editRule(r.name) : t.newRule} onClose={props.onClose}>
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error !== null && <ErrorMessage error={error} />}
        <div>
          <label htmlFor="rule-name" className={label}>
            {t.name}
          </label>
          <input
            id="rule-name"
            className={input}
            value={form.name}
            maxLength={128}
            onChange={(e) => set('name', e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="rule-metric" className={label}>
            {t.metric}
          </label>
          <select
            id="rule-metric"
            className={input}
            value={form.metric}
            onChange={(e) => set('metric', e.target.value)}
          >
            {ALERT_METRICS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <div>
            <label htmlFor="rule-operator" className={label}>
              {t.operator}
            </label>
            <select
              id="rule-operator"
              className={input}
              value={form.operator}
              onChange={(e) => set('operator', e.target.value)}
            >
              {ALERT_OPERATORS.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="rule-threshold" className={label}>
              {t.threshold}
            </label>
            <input
              id="rule-threshold"
              className={input}
              inputMode="decimal"
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
            />
          </div>
        </div>
        <div>
          <label htmlFor="rule-clear" className={label}>
            {t.clearThreshold}
          </label>
          <input
            id="rule-clear"
            className={input}
            inputMode="decimal"
            placeholder={t.clearThresholdSame}
            value={clear}
            onChange={(e) => setClear(e.target.value)}
          />
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.clearThresholdHint}</p>
        </div>
        {corePlusAllowed && (
          <div className="grid grid-cols-2 gap-2">
            <div>
              <label htmlFor="rule-mode" className={label}>
                {t.thresholdMode}
              </label>
              <select
                id="rule-mode"
                className={input}
                value={form.threshold_mode}
                onChange={(e) => set('threshold_mode', e.target.value as 'static' | 'core_plus')}
              >
                <option value="static">{t.modeStatic}</option>
                <option value="core_plus">{t.modeCorePlus}</option>
              </select>
            </div>
            {form.threshold_mode === 'core_plus' && (
              <div>
                <label htmlFor="rule-offset" className={label}>
                  {t.offset}
                </label>
                <input
                  id="rule-offset"
                  type="number"
                  step="any"
                  className={input}
                  value={form.threshold_offset}
                  onChange={(e) => set('threshold_offset', Number(e.target.value))}
                />
              </div>
            )}
          </div>
        )}
        <div className="grid grid-cols-2 gap-2">
          <div>
            <label htmlFor="rule-duration" className={label}>
              {t.duration}
            </label>
            <select
              id="rule-duration"
              className={input}
              value={form.duration_sec}
              onChange={(e) => set('duration_sec', Number(e.target.value))}
            >
              {ALERT_DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {t.durationOption(d)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="rule-cooldown" className={label}>
              {t.cooldown}
            </label>
            <input
              id="rule-cooldown"
              type="number"
              min={0}
              max={525600}
              className={input}
              value={form.cooldown_min}
              onChange={(e) => set('cooldown_min', Number(e.target.value))}
            />
          </div>
        </div>
        <div className="grid grid-cols-2 gap-2">
          <div>
            <label htmlFor="rule-repeat" className={label}>
              {t.repeatInterval}
            </label>
            <input
              id="rule-repeat"
              type="number"
              min={0}
              max={1440}
              className={input}
              value={form.repeat_interval_min}
              onChange={(e) => set('repeat_interval_min', Number(e.target.value))}
            />
          </div>
          <div>
            <label htmlFor="rule-repeat-max" className={label}>
              {t.repeatMax}
            </label>
            <input
              id="rule-repeat-max"
              type="number"
              min={0}
              max={100}
              className={input}
              placeholder={t.repeatMaxGlobal}
              value={repeatMax}
              onChange={(e) => setRepeatMax(e.target.value)}
            />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={form.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
          {t.enabled}
        </label>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {s.app.cancel}
          </button>
          <button type="submit" className={btnPrimary} disabled={busy || !form.name.trim()}>
            {s.app.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
