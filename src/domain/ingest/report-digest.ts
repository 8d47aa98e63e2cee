import type { NodeView, SmartView, ThermalView } from '../../protocol/front-view.js';
import type { ReportMetrics } from '../../protocol/node-report.js';
import { alertReadings, type AlertReadings } from '../alerts/readings.js';
import type { RenderedBody } from '../front/render.js';

/**
 * One interface's cumulative byte counters as reported. A counter the report lacks is null
 * (unknown), never 0: a 0 would look like a counter reset to traffic accounting.
 */
export interface IfaceCounters {
  name: string;
  rx: number | null;
  tx: number | null;
}

/**
 * What the accepted-report listeners read of a report, taken beside its decode (on the ingest
 * thread), so they never parse a body or a view on the HTTP thread.
 */
export interface ReportDigest {
  counters: IfaceCounters[];
  /** Absent when the view was not rendered beside the decode (its facts were not known yet). */
  readings?: AlertReadings;
}

export function ifaceCounters(m: ReportMetrics): IfaceCounters[] {
  return (m.network ?? []).map((i) => ({
    name: (i.name ?? '').trim(),
    rx: i.bytes_recv ?? null,
    tx: i.bytes_sent ?? null,
  }));
}

const NO_NODE: NodeView['node'] = { id: '', title: '' };

/** Alert readings of a rendered body with the report's own SMART and thermal views. */
export function bodyReadings(
  body: RenderedBody,
  smart: SmartView | undefined,
  thermal: ThermalView | undefined,
): AlertReadings {
  const view: NodeView = { node: NO_NODE, ...body };
  if (smart) view.disk = { ...body.disk, smart };
  if (thermal) view.thermal = thermal;
  return alertReadings(view);
}
