import { useState, type FormEvent } from 'react';
import {
  DEFAULT_GROUP_ID,
  createGroup,
  deleteGroup,
  listGroups,
  updateGroup,
  type AdminGroup,
} from '../../api/admin-groups';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnDanger,
  btnPrimary,
  btnSecondary,
  card,
  input,
  label,
  table,
  td,
  th,
} from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { useResources } from '../../state/resources';

const t = s.admin.groups;

function GroupDialog(props: {
  group: AdminGroup | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const g = props.group;
  const [name, setName] = useState(g?.name ?? '');
  const [remark, setRemark] = useState(g?.remark ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (g) await updateGroup(g.id, { name: name.trim(), remark: remark.trim() });
      else await createGroup(name.trim(), remark.trim());
      props.onSaved();
      props.onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog title={g ? t.editTitle(g.name) : t.newTitle} onClose={props.onClose}>
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error !== null && <ErrorMessage error={error} />}
        <div>
          <label htmlFor="group-name" className={label}>
            {t.name}
          </label>
          <input
            id="group-name"
            className={input}
            value={name}
            maxLength={64}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="group-remark" className={label}>
            {t.remark}
          </label>
          <input
            id="group-remark"
            className={input}
            value={remark}
            maxLength={255}
            onChange={(e) => setRemark(e.target.value)}
          />
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {s.app.cancel}
          </button>
          <button type="submit" className={btnPrimary} disabled={busy || !name.trim()}>
            {s.app.save}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function AdminGroupsPage() {
  const resources = useResources();
  const groups = useAsync((signal) => listGroups(signal), []);
  const [editing, setEditing] = useState<AdminGroup | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);

  const changed = () => {
    groups.reload();
    resources.groups.reload();
  };

  const remove = async (g: AdminGroup) => {
    if (!window.confirm(t.deleteConfirm(g.name))) return;
    setError(null);
    try {
      await deleteGroup(g.id);
      changed();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t.title}</h2>
        <button type="button" className={btnPrimary} onClick={() => setEditing('new')}>
          {t.add}
        </button>
      </div>
      {error !== null && <ErrorMessage error={error} />}
      {groups.loading && !groups.data && <Loading />}
      {groups.error !== null && <ErrorMessage error={groups.error} onRetry={groups.reload} />}
      {groups.data && groups.data.length === 0 && <Notice>{t.empty}</Notice>}
      {groups.data && groups.data.length > 0 && (
        <div className={`${card} overflow-x-auto`}>
          <table className={table}>
            <thead>
              <tr>
                <th className={th}>{t.name}</th>
                <th className={th}>{t.remark}</th>
                <th className={th}>{t.nodes}</th>
                <th className={th}>
                  <span className="sr-only">{s.admin.nodes.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => (
                <tr key={g.id} data-group-row={g.id}>
                  <td className={`${td} font-medium break-all`}>{g.name}</td>
                  <td className={`${td} break-all`}>{g.remark}</td>
                  <td className={`${td} tabular-nums`}>{g.server_count}</td>
                  <td className={`${td} space-x-2 text-right whitespace-nowrap`}>
                    <button type="button" className={btnSecondary} onClick={() => setEditing(g)}>
                      {s.app.edit}
                    </button>
                    <button
                      type="button"
                      className={btnDanger}
                      disabled={g.id === DEFAULT_GROUP_ID}
                      title={g.id === DEFAULT_GROUP_ID ? t.defaultLocked : undefined}
                      onClick={() => void remove(g)}
                    >
                      {s.app.delete}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <GroupDialog
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={changed}
        />
      )}
    </div>
  );
}
