import type { FrontGroup } from '../api/front';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/context';
import { ErrorMessage, Loading, Notice } from '../components/Feedback';
import { NodeGrid, type UptimeEntry } from '../components/NodeGrid';
import { useAlertSummary } from '../hooks/useAlertSummary';
import { UptimeDayDialog } from '../components/UptimeDayDialog';
import { input, label } from '../components/ui';
import { useNow } from '../hooks/useNow';
import { s } from '../i18n';
import { applyFilter, type SortKey } from '../lib/filter';
import { isOffline } from '../lib/node-status';
import { useResource, useResources } from '../state/resources';

const NO_GROUPS: FrontGroup[] = [];

const SORTS: { key: SortKey; text: string }[] = [
  { key: 'order', text: s.dashboard.sortOrder },
  { key: 'name', text: s.dashboard.sortName },
  { key: 'cpu', text: s.dashboard.sortCpu },
  { key: 'memory', text: s.dashboard.sortMemory },
  { key: 'network', text: s.dashboard.sortNetwork },
];

function parseSort(v: string | null): SortKey {
  return SORTS.some((x) => x.key === v) ? (v as SortKey) : 'order';
}

/** Filters live in the address so a filtered view can be bookmarked and shared. */
function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const groupRaw = params.get('group');
  const filter = {
    search: params.get('q') ?? '',
    groupId: groupRaw && /^\d+$/.test(groupRaw) ? Number(groupRaw) : null,
    sort: parseSort(params.get('sort')),
  };
  const update = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  return { filter, update };
}

export function DashboardPage() {
  const res = useResources();
  const auth = useAuth();
  const metrics = useResource(res.metrics);
  const groups = useResource(res.groups).data ?? NO_GROUPS;
  const uptime = useResource(res.uptime).data;
  const now = useNow(1000);
  const alerts = useAlertSummary(auth.status === 'admin');
  const { filter, update } = useFilterParams();
  const [openDay, setOpenDay] = useState<{ nodeId: string; date: string } | null>(null);

  const all = metrics.data;
  const { search, groupId, sort } = filter;
  const shown = useMemo(
    () => applyFilter(all ?? [], groups, { search, groupId, sort }),
    [all, groups, search, groupId, sort],
  );
  const offline = useMemo(
    () => new Set((all ?? []).filter((v) => isOffline(v, now)).map((v) => v.node.id)),
    [all, now],
  );
  const uptimeByNode = useMemo(() => {
    const map = new Map<string, UptimeEntry>();
    if (!uptime?.enabled) return map;
    for (const n of uptime.nodes) {
      map.set(n.server_id, { days: n.days, warning: uptime.warning_sla, error: uptime.error_sla });
    }
    return map;
  }, [uptime]);
  const onOpenDay = useCallback((nodeId: string, date: string) => setOpenDay({ nodeId, date }), []);

  if (metrics.loading && !all) return <Loading />;
  if (!all) {
    return <ErrorMessage error={metrics.error} onRetry={() => res.metrics.reload()} />;
  }
  const online = all.length - offline.size;
  const dayNode = openDay && all.find((v) => v.node.id === openDay.nodeId);

  return (
    <div className="space-y-3">
      <h1 className="sr-only">{s.dashboard.title}</h1>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <label htmlFor="node-search" className={label}>
            {s.dashboard.searchLabel}
          </label>
          <input
            id="node-search"
            type="search"
            className={input}
            placeholder={s.dashboard.searchPlaceholder}
            value={filter.search}
            onChange={(e) => update('q', e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="node-group" className={label}>
            {s.dashboard.groupLabel}
          </label>
          <select
            id="node-group"
            className={input}
            value={filter.groupId ?? ''}
            onChange={(e) => update('group', e.target.value)}
          >
            <option value="">{s.dashboard.allGroups}</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="node-sort" className={label}>
            {s.dashboard.sortLabel}
          </label>
          <select
            id="node-sort"
            className={input}
            value={filter.sort}
            onChange={(e) => update('sort', e.target.value === 'order' ? '' : e.target.value)}
          >
            {SORTS.map((x) => (
              <option key={x.key} value={x.key}>
                {x.text}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
        {s.dashboard.summary(shown.length, all.length, online)}
      </p>
      {metrics.error !== null && <Notice tone="warn">{s.dashboard.updateFailed}</Notice>}
      {all.length === 0 ? (
        <Notice>{auth.status === 'admin' ? s.dashboard.emptyAdmin : s.dashboard.empty}</Notice>
      ) : shown.length === 0 ? (
        <Notice>{s.dashboard.noMatch}</Notice>
      ) : (
        <NodeGrid
          nodes={shown}
          offline={offline}
          uptime={uptimeByNode}
          onOpenDay={onOpenDay}
          alerts={alerts}
        />
      )}
      {openDay && uptime && (
        <UptimeDayDialog
          nodeId={openDay.nodeId}
          nodeName={dayNode?.node.title ?? openDay.nodeId}
          date={openDay.date}
          warning={uptime.warning_sla}
          error={uptime.error_sla}
          onClose={() => setOpenDay(null)}
        />
      )}
    </div>
  );
}
