import { usageLevel } from '../lib/format';

const FILL = { ok: 'bg-emerald-500', warn: 'bg-amber-400', danger: 'bg-rose-500' };

/** Usage bar; colour switches at 60 % and 90 %. */
export function Meter(props: { ratio: number; label: string; value: string; detail?: string }) {
  const ratio = Math.min(1, Math.max(0, props.ratio || 0));
  return (
    <div>
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="text-slate-500 dark:text-slate-400">{props.label}</span>
        <span className="truncate font-medium tabular-nums" title={props.detail}>
          {props.value}
        </span>
      </div>
      <div
        className="mt-0.5 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        role="meter"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(ratio * 100)}
      >
        <div
          className={`h-full rounded-full ${FILL[usageLevel(ratio)]}`}
          style={{ width: `${ratio * 100}%` }}
        />
      </div>
    </div>
  );
}
