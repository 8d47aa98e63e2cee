import { useEffect, useState } from 'react';
import { alertSummary } from '../api/alerts';

export interface NodeAlerts {
  count: number;
  metrics: string[];
}

const POLL_MS = 15_000;

/**
 * Open alerts per node id (as the front view spells ids), polled for admins only; guests
 * cannot read alert records. A failed poll keeps the last answer.
 */
export function useAlertSummary(enabled: boolean): ReadonlyMap<string, NodeAlerts> {
  const [byNode, setByNode] = useState<ReadonlyMap<string, NodeAlerts>>(new Map());
  useEffect(() => {
    if (!enabled) return;
    const ctl = new AbortController();
    const load = () =>
      alertSummary(ctl.signal)
        .then((r) =>
          setByNode(
            new Map(
              r.items.map((i) => [
                String(i.server_id),
                { count: i.open_count, metrics: i.metrics },
              ]),
            ),
          ),
        )
        // a failed or aborted poll keeps the last badges; the next poll tries again
        .catch(() => {});
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      clearInterval(timer);
      ctl.abort();
    };
  }, [enabled]);
  return enabled ? byNode : NONE;
}

const NONE: ReadonlyMap<string, NodeAlerts> = new Map();
