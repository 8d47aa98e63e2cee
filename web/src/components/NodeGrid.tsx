import { useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { NodeView } from '../api/front';
import type { UptimeDay } from '../api/metrics';
import { useElementWidth } from '../hooks/useElementWidth';
import { NodeCard } from './NodeCard';
import type { NodeAlerts } from '../hooks/useAlertSummary';

// Narrow enough for five cards on a 1440 px screen, wide enough for "123 MiB/s / 45.6 MiB/s".
const MIN_CARD_WIDTH = 250;
const GAP = 12;
const ROW_ESTIMATE = 330;

export function columnsFor(width: number): number {
  if (width <= 0) return 1;
  return Math.max(1, Math.floor((width + GAP) / (MIN_CARD_WIDTH + GAP)));
}

export interface UptimeEntry {
  days: UptimeDay[];
  warning: number;
  error: number;
}

export interface NodeGridProps {
  nodes: NodeView[];
  offline: ReadonlySet<string>;
  uptime: ReadonlyMap<string, UptimeEntry>;
  onOpenDay: (nodeId: string, date: string) => void;
  /** Open alerts per node (admins only). */
  alerts?: ReadonlyMap<string, NodeAlerts>;
  /** Offline nodes: how long ago their last report arrived. */
  ago?: ReadonlyMap<string, string>;
}

/**
 * Window-scrolled grid that mounts only the rows near the viewport, so thousands of nodes
 * cost no more per poll than the few dozen on screen.
 */
export function NodeGrid({ nodes, offline, uptime, onOpenDay, alerts, ago }: NodeGridProps) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const cols = columnsFor(useElementWidth(el));
  const rows = Math.ceil(nodes.length / cols);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 3,
    gap: GAP,
    scrollMargin: el?.offsetTop ?? 0,
    // A row not laid out yet (or a layout-less test DOM) measures 0; keep the estimate then.
    measureElement: (row) => row.getBoundingClientRect().height || ROW_ESTIMATE,
  });

  return (
    <div ref={setEl} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => {
        const start = row.index * cols;
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full"
            style={{
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`,
              gap: GAP,
            }}
          >
            {nodes.slice(start, start + cols).map((v) => (
              <NodeCard
                key={v.node.id}
                view={v}
                offline={offline.has(v.node.id)}
                uptime={uptime.get(v.node.id)}
                onOpenDay={onOpenDay}
                alerts={alerts?.get(v.node.id)}
                ago={ago?.get(v.node.id)}
              />
            ))}
          </div>
        );
      })}
    </div>
  );
}
