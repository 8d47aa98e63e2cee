import { useState, type FormEvent } from 'react';
import {
  deleteNode,
  fetchDeployInfo,
  patchNode,
  upgradeNode,
  type AdminNode,
  type CycleMode,
  type DeployInfo,
  type DirectionMode,
} from '../../api/admin-nodes';
import type { AdminGroup } from '../../api/admin-groups';
import { CopyField } from '../../components/CopyField';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnDanger, btnPrimary, btnSecondary, input, label } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import {
  buildPatch,
  formFromNode,
  generateSecret,
  installCommand,
  type NodeForm,
} from '../../lib/node-form';

const t = s.admin.nodes;
const PLATFORMS = ['linux', 'macos', 'windows'] as const;
type Platform = (typeof PLATFORMS)[number];

function Section(props: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="space-y-3 border-t border-slate-200 pt-3 dark:border-slate-700">
      <legend className="pr-2 text-sm font-semibold">{props.title}</legend>
      {props.children}
    </fieldset>
  );
}

function Install(props: { secret: string }) {
  const deploy = useAsync<DeployInfo>((signal) => fetchDeployInfo(signal), []);
  const [platform, setPlatform] = useState<Platform>('linux');
  if (deploy.loading) return <Loading />;
  if (!deploy.data) return <ErrorMessage error={deploy.error} onRetry={deploy.reload} />;
  const script = deploy.data.scripts[platform];
  const agents = deploy.data.agents ?? [];
  const forPlatform = agents.filter((a) => a.os === platform);
  const missing = agents.some((a) => !a.published);
  return (
    <div className="space-y-2">
      <p className="text-xs text-slate-500 dark:text-slate-400">{t.installHint}</p>
      {deploy.data.address?.warning && <Notice tone="warn">{deploy.data.address.warning}</Notice>}
      <div role="radiogroup" aria-label={t.platform} className="flex gap-1">
        {PLATFORMS.map((p) => (
          <button
            key={p}
            type="button"
            role="radio"
            aria-checked={platform === p}
            className={platform === p ? btnPrimary : btnSecondary}
            onClick={() => setPlatform(p)}
          >
            {p}
          </button>
        ))}
      </div>
      <CopyField
        id="install-command"
        label={t.install}
        value={installCommand(script.command_prefix, props.secret)}
      />
      {forPlatform.length > 0 && !forPlatform.some((a) => a.published) && (
        <Notice tone="warn">{t.noBuildForPlatform}</Notice>
      )}
      {agents.length > 0 && (
        <details className="text-xs" open={missing}>
          <summary className="cursor-pointer font-medium">{t.agentBuilds}</summary>
          <ul aria-label={t.agentBuilds} className="mt-1 grid grid-cols-2 gap-x-4">
            {agents.map((a) => (
              <li key={a.id} title={a.problem ?? a.asset}>
                <span className="font-mono">{a.id}</span>{' '}
                <span className={a.published ? 'text-emerald-600' : 'text-slate-500'}>
                  {a.published ? t.agentPublished : t.agentNotPublished}
                </span>
              </li>
            ))}
          </ul>
          {missing && (
            <p className="mt-1 text-slate-500 dark:text-slate-400">
              {t.agentBuildsMissing(deploy.data.add_agents_command ?? 'make agents')}
            </p>
          )}
        </details>
      )}
    </div>
  );
}

export function NodeEditDialog(props: {
  node: AdminNode;
  groups: AdminGroup[];
  /** Just created: the install command is what the admin needs first. */
  fresh?: boolean;
  onClose: () => void;
  /** Called after any write so the list reloads. */
  onChanged: (message?: string) => void;
}) {
  const { node } = props;
  const [form, setForm] = useState<NodeForm>(() => formFromNode(node));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const set = <K extends keyof NodeForm>(key: K, value: NodeForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const run = async (fn: () => Promise<void>, message?: string, close = false) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await fn();
      props.onChanged(message);
      if (close) props.onClose();
      else if (message) setNotice(message);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    const patch = buildPatch(node, form);
    if (!patch) {
      props.onClose();
      return;
    }
    void run(() => patchNode(node.id, patch), s.app.saved, true);
  };

  const rotate = () => {
    if (!window.confirm(t.rotateConfirm)) return;
    void run(() => patchNode(node.id, { secret: generateSecret() }), t.secretRotated);
  };

  const remove = () => {
    if (!window.confirm(t.deleteConfirm(node.name))) return;
    void run(() => deleteNode(node.id), t.deleted, true);
  };

  const toggleGroup = (id: number, on: boolean) =>
    set('groupIds', on ? [...form.groupIds, id] : form.groupIds.filter((g) => g !== id));

  return (
    <Dialog title={t.editTitle(node.name)} onClose={props.onClose} wide>
      {props.fresh && (
        <div className="mb-4">
          <Section title={t.install}>
            <Install secret={node.secret} />
          </Section>
        </div>
      )}
      <form onSubmit={save} className="space-y-4" noValidate>
        {error !== null && <ErrorMessage error={error} />}
        {notice && <Notice tone="ok">{notice}</Notice>}
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="node-name" className={label}>
              {t.name}
            </label>
            <input
              id="node-name"
              className={input}
              value={form.name}
              maxLength={64}
              onChange={(e) => set('name', e.target.value)}
            />
          </div>
          <div>
            <label htmlFor="node-tags" className={label}>
              {t.tags}
            </label>
            <input
              id="node-tags"
              className={input}
              value={form.tagsText}
              placeholder={t.tagsHint}
              onChange={(e) => set('tagsText', e.target.value)}
            />
          </div>
        </div>
        <fieldset>
          <legend className={label}>{t.groups}</legend>
          <div className="flex flex-wrap gap-3">
            {props.groups.map((g) => (
              <label key={g.id} className="flex items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  checked={form.groupIds.includes(g.id)}
                  onChange={(e) => toggleGroup(g.id, e.target.checked)}
                />
                {g.name}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-4">
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={form.guestVisible}
              onChange={(e) => set('guestVisible', e.target.checked)}
            />
            {t.guestVisible}
          </label>
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={form.p95}
              onChange={(e) => set('p95', e.target.checked)}
            />
            {t.p95}
          </label>
        </div>

        <Section title={t.cycle}>
          <div className="grid gap-3 sm:grid-cols-3">
            <div>
              <label htmlFor="cycle-mode" className={label}>
                {t.cycleMode}
              </label>
              <select
                id="cycle-mode"
                className={input}
                value={form.cycleMode}
                onChange={(e) => set('cycleMode', e.target.value as CycleMode)}
              >
                {(Object.keys(t.cycleModes) as CycleMode[]).map((m) => (
                  <option key={m} value={m}>
                    {t.cycleModes[m]}
                  </option>
                ))}
              </select>
            </div>
            {form.cycleMode === 'clamp_to_month_end' && (
              <div>
                <label htmlFor="start-day" className={label}>
                  {t.startDay}
                </label>
                <input
                  id="start-day"
                  type="number"
                  min={1}
                  max={31}
                  className={input}
                  value={form.startDay}
                  onChange={(e) => set('startDay', e.target.value)}
                />
              </div>
            )}
            {form.cycleMode === 'whmcs_compatible' && (
              <div>
                <label htmlFor="anchor-date" className={label}>
                  {t.anchorDate}
                </label>
                <input
                  id="anchor-date"
                  type="date"
                  className={input}
                  value={form.anchorDate}
                  onChange={(e) => set('anchorDate', e.target.value)}
                />
              </div>
            )}
            <div>
              <label htmlFor="cycle-tz" className={label}>
                {t.timezone}
              </label>
              <input
                id="cycle-tz"
                className={input}
                value={form.timezone}
                placeholder={t.timezoneHint}
                onChange={(e) => set('timezone', e.target.value)}
              />
            </div>
          </div>
          <div className="sm:w-1/3">
            <label htmlFor="direction" className={label}>
              {t.direction}
            </label>
            <select
              id="direction"
              className={input}
              value={form.direction}
              onChange={(e) => set('direction', e.target.value as DirectionMode)}
            >
              {(Object.keys(t.directionModes) as DirectionMode[]).map((m) => (
                <option key={m} value={m}>
                  {t.directionModes[m]}
                </option>
              ))}
            </select>
          </div>
        </Section>

        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {s.app.cancel}
          </button>
          <button type="submit" className={btnPrimary} disabled={busy}>
            {s.app.save}
          </button>
        </div>
      </form>

      <div className="mt-4 space-y-4">
        {!props.fresh && (
          <Section title={t.install}>
            <Install secret={node.secret} />
          </Section>
        )}
        <Section title={t.secret}>
          <CopyField id="node-secret" label={t.secret} value={node.secret} />
          <button type="button" className={btnSecondary} disabled={busy} onClick={rotate}>
            {t.rotateSecret}
          </button>
        </Section>
        <Section title={t.actions}>
          <div className="flex flex-wrap gap-2">
            {node.version.supports_auto_update && (
              <button
                type="button"
                className={btnSecondary}
                disabled={busy}
                onClick={() => void run(() => upgradeNode(node.id), t.upgradeQueued)}
              >
                {t.upgrade}
              </button>
            )}
            <button type="button" className={btnDanger} disabled={busy} onClick={remove}>
              {t.delete}
            </button>
          </div>
        </Section>
      </div>
    </Dialog>
  );
}
