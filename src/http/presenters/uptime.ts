import { Type } from 'typebox';
import type { UptimeDayDetail, UptimeOverview } from '../../domain/uptime/uptime-service.js';

const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const UptimeResponse = Type.Object({
  enabled: Type.Boolean(),
  timezone: Type.String(),
  generated_at: Type.String(),
  warning_sla: Type.Number(),
  error_sla: Type.Number(),
  nodes: Type.Array(
    Type.Object({
      server_id: Type.String(),
      days: Type.Array(
        Type.Object({
          date: Type.String(),
          percent: Nullable(Type.Number()),
          observed_ms: Type.Integer(),
        }),
      ),
    }),
  ),
});

export const UptimeDayResponse = Type.Object({
  date: Type.String(),
  hours: Type.Array(Nullable(Type.Number())),
  observed_ms: Type.Array(Type.Integer()),
});

export function presentUptime(o: UptimeOverview) {
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

export function presentUptimeDay(d: UptimeDayDetail) {
  return { date: d.date, hours: d.hours, observed_ms: d.observedMs };
}
