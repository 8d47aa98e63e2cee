import type { NodeView } from '../../protocol/front-view.js';
import type { AlertReadings } from '../alerts/readings.js';
import type { IfaceCounters } from './report-digest.js';

/** A metrics report that became its node's current projection. */
export interface AcceptedReport {
  nodeId: number;
  /** Server receive time (epoch ms): the order that decides the current projection. */
  receivedAt: number;
  /** Interface counters as reported, decoded beside the report (null: the report lacks it). */
  counters: readonly IfaceCounters[];
  /** What alert rules read of the report (undefined: no view). */
  readings: AlertReadings | undefined;
  /** The node's front view after this report, parsed on each call: not for the ingest path. */
  view(): NodeView | undefined;
}

export type AcceptedReportListener = (event: AcceptedReport) => void | Promise<void>;

/**
 * Fires once per report that became current, in commit order, after it is durable. Reports
 * that were stored but are older than the node's current one (spec §4.4 rule 3) do not fire,
 * so traffic accounting and alert evaluation never act on stale data.
 */
export class ReportEvents {
  private listeners: AcceptedReportListener[] = [];

  /** Subscribes; returns a function that unsubscribes. */
  onAccepted(listener: AcceptedReportListener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  /** Runs every listener; failures are reported and never reach the reporting node. */
  emitAccepted(event: AcceptedReport, onError: (err: unknown) => void): void {
    for (const listener of this.listeners) {
      try {
        const r = listener(event);
        if (r instanceof Promise) r.catch(onError);
      } catch (err) {
        onError(err);
      }
    }
  }
}
