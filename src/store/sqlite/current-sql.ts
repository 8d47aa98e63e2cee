import type { MetricsWrite } from '../ports.js';

/**
 * The one statement that stores a node's current projection, shared by the metrics engine and
 * the open-log seal: a row only ever moves forward in receive time, so a late or replayed write
 * never replaces a newer projection.
 */
export const UPSERT_NODE_CURRENT_SQL = `INSERT INTO node_current (node_id, received_at, reported_at, first_received_at,
   runtime_json, smart_json, thermal_json, pressure_json)
 VALUES (?, ?, ?, ?, ?, ?, ?, ?)
 ON CONFLICT (node_id) DO UPDATE SET
   received_at = excluded.received_at, reported_at = excluded.reported_at,
   runtime_json = excluded.runtime_json, smart_json = excluded.smart_json,
   thermal_json = excluded.thermal_json, pressure_json = excluded.pressure_json
 WHERE excluded.received_at >= node_current.received_at`;

/** The statement's parameters for a report that became the node's stored projection. */
export function currentParams(e: MetricsWrite): unknown[] {
  const c = e.current;
  return [
    e.nodeId,
    e.receivedAt,
    c.reportedAt,
    e.receivedAt,
    c.runtimeJson ?? JSON.stringify(c.runtime),
    c.smartJson,
    c.thermalJson,
    c.pressureJson,
  ];
}
