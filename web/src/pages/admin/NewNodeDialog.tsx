import { useState, type FormEvent } from 'react';
import { createNode, listNodes, patchNode, type NodePatch } from '../../api/admin-nodes';
import type { AdminGroup } from '../../api/admin-groups';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/Feedback';
import { btnPrimary, btnSecondary, input, label } from '../../components/ui';
import { s } from '../../i18n';
import { parseTags } from '../../lib/node-form';

const t = s.admin.nodes;

/**
 * "Add node": nothing exists until Save. Save creates the node (the API makes a hidden
 * placeholder with a generated secret), applies what was typed, and hands the new id back so
 * the caller can show its install command. Cancel leaves no stray node behind.
 */
export function NewNodeDialog(props: {
  groups: AdminGroup[];
  onClose: () => void;
  /** patchError: the node exists but a typed field was refused (shown by the caller). */
  onCreated: (id: number, patchError?: unknown) => void;
}) {
  const [name, setName] = useState('');
  const [tagsText, setTagsText] = useState('');
  const [groupIds, setGroupIds] = useState<number[]>([]);
  const [guestVisible, setGuestVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const before = new Set((await listNodes()).map((n) => n.id));
      await createNode();
      const created = (await listNodes())
        .filter((n) => !before.has(n.id))
        .sort((a, b) => b.id - a.id)[0];
      if (!created) throw new Error('created node not listed');
      const patch: NodePatch = {};
      if (name.trim()) patch.name = name.trim();
      const tags = parseTags(tagsText);
      if (tags.length > 0) patch.tags = tags;
      if (groupIds.length > 0) patch.group_ids = [...groupIds].sort((a, b) => a - b);
      if (guestVisible) patch.is_guest_visible = true;
      // The node exists now: a refused field (a bad name) is reported, and the node's settings
      // open so it can be fixed there; saving here again would create a second node.
      let patchError: unknown;
      if (Object.keys(patch).length > 0) {
        await patchNode(created.id, patch).catch((err: unknown) => (patchError = err));
      }
      props.onCreated(created.id, patchError);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Dialog title={t.newTitle} onClose={props.onClose}>
      <form onSubmit={(e) => void save(e)} className="space-y-4" noValidate>
        <p className="text-xs text-slate-500 dark:text-slate-400">{t.newHint}</p>
        {error !== null && <ErrorMessage error={error} />}
        <div>
          <label htmlFor="new-node-name" className={label}>
            {t.name}
          </label>
          <input
            id="new-node-name"
            className={input}
            value={name}
            maxLength={64}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="new-node-tags" className={label}>
            {t.tags}
          </label>
          <input
            id="new-node-tags"
            className={input}
            value={tagsText}
            placeholder={t.tagsHint}
            onChange={(e) => setTagsText(e.target.value)}
          />
        </div>
        {props.groups.length > 0 && (
          <fieldset>
            <legend className={label}>{t.groups}</legend>
            <div className="flex flex-wrap gap-3">
              {props.groups.map((g) => (
                <label key={g.id} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="checkbox"
                    checked={groupIds.includes(g.id)}
                    onChange={(e) =>
                      setGroupIds((ids) =>
                        e.target.checked ? [...ids, g.id] : ids.filter((x) => x !== g.id),
                      )
                    }
                  />
                  {g.name}
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <label className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            checked={guestVisible}
            onChange={(e) => setGuestVisible(e.target.checked)}
          />
          {t.guestVisible}
        </label>
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={props.onClose}>
            {s.app.cancel}
          </button>
          <button type="submit" className={btnPrimary} disabled={busy}>
            {busy ? t.adding : t.create}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
