import type { UptimeDayResponse, UptimeResponse } from '../../protocol/api/metrics.js';
import type { UptimeDayDetail, UptimeOverview } from '../../domain/uptime/uptime-service.js';

export function presentUptime(o: UptimeOverview): UptimeResponse {
  return {
    enabled: o.enabled,
    timezone: o.timezone,
    generated_at: o.generatedAt,
    warning_sla: o.warningSla,
    error_sla: o.errorSla,
    nodes: o.nodes.map((n) => ({
      server_id: n.serverId,
      days: n.days.map((d) => ({ date: d.date, percent: d.percent, observed_ms: d.observedMs })),
    })),
  };
}

export function presentUptimeDay(d: UptimeDayDetail): UptimeDayResponse {
  return { date: d.date, hours: d.hours, observed_ms: d.observedMs };
}
