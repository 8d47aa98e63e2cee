import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import {
  fetchBrand,
  fetchFrontGroups,
  fetchFrontMetrics,
  type Brand,
  type FrontGroup,
  type NodeView,
} from '../api/front';
import { fetchAccess, fetchUptime, type AccessSettings, type UptimeResponse } from '../api/metrics';
import { reuseUnchanged } from '../lib/node-status';
import { PollingResource, type ResourceState } from './polling';

/** Front metrics every 3 s with a 3 s timeout; uptime every 60 s (reference §11.5). */
export const METRICS_INTERVAL_MS = 3000;
export const UPTIME_INTERVAL_MS = 60_000;
const BRAND_INTERVAL_MS = 300_000;

export interface Resources {
  metrics: PollingResource<NodeView[]>;
  groups: PollingResource<FrontGroup[]>;
  uptime: PollingResource<UptimeResponse>;
  access: PollingResource<AccessSettings>;
  brand: PollingResource<Brand>;
}

export function createResources(): Resources {
  return {
    metrics: new PollingResource(
      (signal) => fetchFrontMetrics(signal, METRICS_INTERVAL_MS),
      METRICS_INTERVAL_MS,
      (prev, next) => reuseUnchanged(prev ?? [], next),
    ),
    groups: new PollingResource(fetchFrontGroups, UPTIME_INTERVAL_MS),
    uptime: new PollingResource(fetchUptime, UPTIME_INTERVAL_MS),
    access: new PollingResource(fetchAccess, UPTIME_INTERVAL_MS),
    brand: new PollingResource(fetchBrand, BRAND_INTERVAL_MS),
  };
}

/** Who the caller is changes what every front read returns. */
export function reloadForCaller(r: Resources): void {
  for (const res of [r.metrics, r.groups, r.uptime, r.access] as PollingResource<unknown>[]) {
    res.reload(true);
  }
}

const ResourcesContext = createContext<Resources | null>(null);

export function ResourcesProvider(props: { value: Resources; children: ReactNode }) {
  return <ResourcesContext value={props.value}>{props.children}</ResourcesContext>;
}

export function useResources(): Resources {
  const r = useContext(ResourcesContext);
  if (!r) throw new Error('ResourcesProvider missing');
  return r;
}

export function useResource<T>(res: PollingResource<T>): ResourceState<T> {
  return useSyncExternalStore(res.subscribe, res.getState);
}
