import { useMemo, useState } from 'react';
import { listNodes, saveDisplayOrder, type AdminNode } from '../../api/admin-nodes';
import { listGroups } from '../../api/admin-groups';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import { btnGhost, btnPrimary, btnSecondary, card, table, td, th } from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { moveItem } from '../../lib/reorder';
import { useResources } from '../../state/resources';
import { NewNodeDialog } from './NewNodeDialog';
import { NodeEditDialog } from './NodeEditDialog';

const t = s.admin.nodes;

export function AdminNodesPage() {
  const resources = useResources();
  const nodes = useAsync((signal) => listNodes(signal), []);
  const groups = useAsync((signal) => listGroups(signal), []);
  const [order, setOrder] = useState<number[] | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [fresh, setFresh] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const byId = useMemo(() => new Map((nodes.data ?? []).map((n) => [n.id, n])), [nodes.data]);
  const rows: AdminNode[] = useMemo(() => {
    const list = nodes.data ?? [];
    if (!order) return list;
    const ordered = order.map((id) => byId.get(id)).filter((n): n is AdminNode => !!n);
    // Nodes created elsewhere since the drag started go last rather than vanish.
    return [...ordered, ...list.filter((n) => !order.includes(n.id))];
  }, [nodes.data, order, byId]);
  const groupNames = useMemo(
    () => new Map((groups.data ?? []).map((g) => [g.id, g.name])),
    [groups.data],
  );

  const changed = (message?: string) => {
    nodes.reload();
    groups.reload();
    resources.metrics.reload();
    resources.groups.reload();
    if (message) setNotice(message);
  };

  const move = (from: number, to: number) => {
    if (to < 0 || to >= rows.length) return;
    setOrder(moveItem(rows, from, to).map((n) => n.id));
  };

  const saveOrder = async () => {
    if (!order) return;
    setBusy(true);
    setError(null);
    try {
      await saveDisplayOrder(rows.map((n) => n.id));
      setOrder(null);
      changed(t.orderSaved);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const editingNode = editing === null ? undefined : byId.get(editing);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t.title}</h2>
        <div className="flex gap-2">
          {order && (
            <button type="button" className={btnSecondary} disabled={busy} onClick={saveOrder}>
              {t.saveOrder}
            </button>
          )}
          <button type="button" className={btnPrimary} onClick={() => setAdding(true)}>
            {t.add}
          </button>
        </div>
      </div>
      {error !== null && <ErrorMessage error={error} />}
      {notice && <Notice tone="ok">{notice}</Notice>}
      {nodes.loading && !nodes.data && <Loading />}
      {nodes.error !== null && <ErrorMessage error={nodes.error} onRetry={nodes.reload} />}
      {nodes.data && rows.length === 0 && <Notice>{t.empty}</Notice>}
      {rows.length > 0 && (
        <>
          <p className="text-xs text-slate-500 dark:text-slate-400">{t.reorderHint}</p>
          <div className={`${card} overflow-x-auto`}>
            <table className={table}>
              <thead>
                <tr>
                  <th className={th}>
                    <span className="sr-only">{s.dashboard.sortOrder}</span>
                  </th>
                  <th className={th}>{t.name}</th>
                  <th className={`${th} hidden md:table-cell`}>{t.hostname}</th>
                  <th className={`${th} hidden sm:table-cell`}>{t.version}</th>
                  <th className={`${th} hidden lg:table-cell`}>{t.tags}</th>
                  <th className={`${th} hidden lg:table-cell`}>{t.groups}</th>
                  <th className={`${th} hidden sm:table-cell`}>{t.guest}</th>
                  <th className={th}>
                    <span className="sr-only">{t.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((n, i) => (
                  <tr
                    key={n.id}
                    data-node-row={n.id}
                    draggable
                    onDragStart={(e) => {
                      setDragging(i);
                      e.dataTransfer.effectAllowed = 'move';
                      e.dataTransfer.setData('text/plain', String(n.id));
                    }}
                    onDragOver={(e) => {
                      if (dragging !== null) e.preventDefault();
                    }}
                    onDrop={(e) => {
                      e.preventDefault();
                      if (dragging !== null) move(dragging, i);
                      setDragging(null);
                    }}
                    onDragEnd={() => setDragging(null)}
                    className={dragging === i ? 'opacity-50' : ''}
                  >
                    <td className={`${td} whitespace-nowrap`}>
                      <span
                        aria-hidden
                        title={t.dragHandle(n.name)}
                        className="mr-1 cursor-grab text-slate-400 select-none"
                      >
                        ⠿
                      </span>
                      <button
                        type="button"
                        className={btnGhost}
                        aria-label={t.moveUp(n.name)}
                        disabled={i === 0}
                        onClick={() => move(i, i - 1)}
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className={btnGhost}
                        aria-label={t.moveDown(n.name)}
                        disabled={i === rows.length - 1}
                        onClick={() => move(i, i + 1)}
                      >
                        ↓
                      </button>
                    </td>
                    <td className={`${td} font-medium break-all`}>{n.name}</td>
                    <td className={`${td} hidden md:table-cell`}>
                      {n.hostname}
                      {n.ip && <div className="text-xs text-slate-500">{n.ip}</div>}
                    </td>
                    <td className={`${td} hidden sm:table-cell`}>
                      <span className="font-mono text-xs">{n.version.version}</span>
                      {n.version.is_outdated && (
                        <span className="ml-1 rounded bg-amber-100 px-1 text-[11px] text-amber-800 dark:bg-amber-900 dark:text-amber-100">
                          {t.outdated}
                        </span>
                      )}
                    </td>
                    <td className={`${td} hidden lg:table-cell`}>{n.tags.join(', ')}</td>
                    <td className={`${td} hidden lg:table-cell`}>
                      {n.group_ids.map((g) => groupNames.get(g) ?? `#${g}`).join(', ')}
                    </td>
                    <td className={`${td} hidden sm:table-cell`}>
                      {n.is_guest_visible ? t.visible : t.hidden}
                    </td>
                    <td className={`${td} text-right`}>
                      <button
                        type="button"
                        className={btnSecondary}
                        aria-label={t.edit(n.name)}
                        onClick={() => setEditing(n.id)}
                      >
                        {s.app.edit}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {adding && (
        <NewNodeDialog
          groups={groups.data ?? []}
          onClose={() => setAdding(false)}
          onCreated={(id, patchError) => {
            setAdding(false);
            setError(patchError ?? null);
            changed();
            setFresh(id);
            setEditing(id);
          }}
        />
      )}
      {editingNode && (
        <NodeEditDialog
          key={editingNode.id}
          node={editingNode}
          groups={groups.data ?? []}
          fresh={fresh === editingNode.id}
          onClose={() => {
            setEditing(null);
            setFresh(null);
          }}
          onChanged={changed}
        />
      )}
    </div>
  );
}
