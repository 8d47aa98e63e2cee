import { memo } from 'react';
import type { UptimeDay } from '../api/metrics';
import { formatPercent } from '../lib/format';
import { SLA_CLASSES, slaLevel } from '../lib/uptime';
import { s } from '../i18n';
import { focusRing } from './ui';

/** One bar per day, oldest first; each day is a button that opens its 24 hours. */
export const UptimeStrip = memo(function UptimeStrip(props: {
  days: UptimeDay[];
  warning: number;
  error: number;
  onOpenDay: (date: string) => void;
}) {
  return (
    <div role="group" aria-label={s.node.uptimeStrip} className="flex h-6 items-stretch gap-px">
      {props.days.map((d) => {
        const text = s.node.uptimeDay(
          d.date,
          d.percent === null ? s.node.noData : formatPercent(d.percent),
        );
        return (
          <button
            key={d.date}
            type="button"
            title={text}
            aria-label={text}
            data-level={slaLevel(d.percent, props.warning, props.error)}
            onClick={() => props.onOpenDay(d.date)}
            className={`min-w-0 flex-1 rounded-[2px] hover:opacity-70 ${focusRing} ${
              SLA_CLASSES[slaLevel(d.percent, props.warning, props.error)]
            }`}
          />
        );
      })}
    </div>
  );
});
