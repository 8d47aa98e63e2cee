import type { FrontGroup } from '../api/front';
import { listNodes, type AdminNode } from '../api/admin-nodes';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/context';
import { ErrorMessage, Loading, Notice } from '../components/Feedback';
import { FleetOverview, fleetTotals } from '../components/FleetOverview';
import { NodeGrid, type UptimeEntry } from '../components/NodeGrid';
import { NodeTable } from '../components/NodeTable';
import { ViewControls } from '../components/ViewControls';
import { WaitingNodes } from '../components/WaitingNodes';
import { useAsync } from '../hooks/useAsync';
import { useAlertSummary } from '../hooks/useAlertSummary';
import { UptimeDayDialog } from '../components/UptimeDayDialog';
import { input, label } from '../components/ui';
import { useNow } from '../hooks/useNow';
import { s } from '../i18n';
import { applyFilter, type SortKey, type StatusFilter } from '../lib/filter';
import { isUnreachable } from '../lib/errors';
import { formatAgo } from '../lib/format';
import { isOffline } from '../lib/node-status';
import {
  loadColumns,
  loadView,
  saveColumns,
  saveView,
  type DashView,
  type TableColumn,
} from '../lib/view-prefs';
import { useResource, useResources } from '../state/resources';

const NO_GROUPS: FrontGroup[] = [];
const NO_NODES: AdminNode[] = [];
const FIRST_RUN_POLL_MS = 500;

const SORTS: { key: SortKey; text: string }[] = [
  { key: 'order', text: s.dashboard.sortOrder },
  { key: 'offline', text: s.fleet.sortOffline },
  { key: 'name', text: s.dashboard.sortName },
  { key: 'cpu', text: s.dashboard.sortCpu },
  { key: 'memory', text: s.dashboard.sortMemory },
  { key: 'network', text: s.dashboard.sortNetwork },
];

const STATUSES: StatusFilter[] = ['all', 'online', 'offline', 'alerting'];

function parseSort(v: string | null): SortKey {
  return SORTS.some((x) => x.key === v) ? (v as SortKey) : 'order';
}

function parseStatus(v: string | null): StatusFilter {
  return STATUSES.includes(v as StatusFilter) ? (v as StatusFilter) : 'all';
}

/** Filters live in the address so a filtered view can be bookmarked and shared. */
function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const groupRaw = params.get('group');
  const filter = {
    search: params.get('q') ?? '',
    groupId: groupRaw && /^\d+$/.test(groupRaw) ? Number(groupRaw) : null,
    sort: parseSort(params.get('sort')),
    status: parseStatus(params.get('status')),
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

/** Admins only: nodes that exist but have never reported (absent from the front list). */
function useWaitingNodes(isAdmin: boolean, reportedIds: string): AdminNode[] {
  // Reloaded whenever the set of reporting nodes changes (a waiting node just reported).
  const list = useAsync(
    (signal) => (isAdmin ? listNodes(signal) : Promise.resolve(NO_NODES)),
    [isAdmin, reportedIds],
  );
  return useMemo(() => {
    if (!isAdmin || !list.data) return NO_NODES;
    const reported = new Set(reportedIds.split(','));
    return list.data.filter((n) => !reported.has(String(n.id)));
  }, [isAdmin, list.data, reportedIds]);
}

export function DashboardPage() {
  const res = useResources();
  const auth = useAuth();
  const isAdmin = auth.status === 'admin';
  const metrics = useResource(res.metrics);
  const groups = useResource(res.groups).data ?? NO_GROUPS;
  const uptime = useResource(res.uptime).data;
  const brand = useResource(res.brand).data;
  const now = useNow(1000);
  const alerts = useAlertSummary(isAdmin);
  const { filter, update } = useFilterParams();
  const [openDay, setOpenDay] = useState<{ nodeId: string; date: string } | null>(null);
  const [view, setView] = useState<DashView>(loadView);
  const [columns, setColumns] = useState<TableColumn[]>(loadColumns);

  const all = metrics.data;
  const reportedIds = useMemo(() => (all ?? []).map((v) => v.node.id).join(','), [all]);
  const waiting = useWaitingNodes(isAdmin, reportedIds);
  const { search, groupId, sort, status } = filter;
  const offline = useMemo(
    () => new Set((all ?? []).filter((v) => isOffline(v, now)).map((v) => v.node.id)),
    [all, now],
  );
  const alerting = useMemo(
    () => new Set([...alerts].filter(([, a]) => a.count > 0).map(([id]) => id)),
    [alerts],
  );
  // Minute resolution (formatAgo), so offline cards re-render once a minute, not every second.
  const ago = useMemo(() => {
    const map = new Map<string, string>();
    for (const v of all ?? []) {
      if (!offline.has(v.node.id)) continue;
      const at = Date.parse(v.observation.received_at ?? '');
      map.set(v.node.id, Number.isNaN(at) ? s.app.none : formatAgo(now - at));
    }
    return map;
  }, [all, offline, now]);
  const shown = useMemo(
    () => applyFilter(all ?? [], groups, { search, groupId, sort, status }, { offline, alerting }),
    [all, groups, search, groupId, sort, status, offline, alerting],
  );
  const totals = useMemo(() => fleetTotals(all ?? [], offline, alerting), [all, offline, alerting]);
  const uptimeByNode = useMemo(() => {
    const map = new Map<string, UptimeEntry>();
    if (!uptime?.enabled) return map;
    for (const n of uptime.nodes) {
      map.set(n.server_id, { days: n.days, warning: uptime.warning_sla, error: uptime.error_sla });
    }
    return map;
  }, [uptime]);
  const onOpenDay = useCallback((nodeId: string, date: string) => setOpenDay({ nodeId, date }), []);
  // First run: ask twice a second until a node appears, so this host shows within seconds of
  // its agent's first report rather than up to a whole poll interval later.
  const empty = all !== undefined && all.length === 0;
  useEffect(() => {
    if (!empty) return;
    const id = setInterval(() => res.metrics.reload(), FIRST_RUN_POLL_MS);
    return () => clearInterval(id);
  }, [empty, res.metrics]);

  if (metrics.loading && !all) return <Loading />;
  if (!all) {
    return <ErrorMessage error={metrics.error} onRetry={() => res.metrics.reload()} />;
  }
  const dayNode = openDay && all.find((v) => v.node.id === openDay.nodeId);
  const showWaiting = status === 'all' || status === 'offline';

  return (
    <div className="space-y-3">
      <h1 className="sr-only">{s.dashboard.title}</h1>
      {all.length > 0 && (
        <FleetOverview
          totals={totals}
          status={status}
          onStatus={(v) => update('status', v === 'all' ? '' : v)}
          showAlerting={isAdmin}
        />
      )}
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
          <label htmlFor="node-status" className={label}>
            {s.fleet.statusLabel}
          </label>
          <select
            id="node-status"
            className={input}
            value={status}
            onChange={(e) => update('status', e.target.value === 'all' ? '' : e.target.value)}
          >
            {STATUSES.filter((x) => x !== 'alerting' || isAdmin).map((x) => (
              <option key={x} value={x}>
                {s.fleet.status[x]}
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
        <ViewControls
          view={view}
          onView={(v) => {
            saveView(v);
            setView(v);
          }}
          columns={columns}
          onColumns={(c) => {
            saveColumns(c);
            setColumns(c);
          }}
        />
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
        {s.dashboard.summary(shown.length, all.length, totals.online)}
      </p>
      {metrics.error !== null && (
        <Notice tone="warn">
          {isUnreachable(metrics.error) && (
            <strong className="block font-medium">{s.errors.network}</strong>
          )}
          {s.dashboard.updateFailed}
        </Notice>
      )}
      {showWaiting && waiting.length > 0 && <WaitingNodes nodes={waiting} />}
      {all.length === 0 ? (
        waiting.length === 0 && (
          <Notice>
            {brand?.local_agent
              ? s.fleet.firstRunLocal
              : isAdmin
                ? s.dashboard.emptyAdmin
                : s.dashboard.empty}
          </Notice>
        )
      ) : shown.length === 0 ? (
        <Notice>{s.dashboard.noMatch}</Notice>
      ) : view === 'table' ? (
        <NodeTable nodes={shown} columns={columns} offline={offline} ago={ago} alerts={alerts} />
      ) : (
        <NodeGrid
          nodes={shown}
          offline={offline}
          uptime={uptimeByNode}
          onOpenDay={onOpenDay}
          alerts={alerts}
          ago={ago}
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
