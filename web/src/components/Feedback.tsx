import { errorText } from '../lib/errors';
import { s } from '../i18n';
import { btnSecondary } from './ui';

export function ErrorMessage(props: { error: unknown; onRetry?: () => void; className?: string }) {
  return (
    <div
      role="alert"
      className={`flex flex-wrap items-center gap-3 rounded-md border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-200 ${props.className ?? ''}`}
    >
      <span>{errorText(props.error)}</span>
      {props.onRetry && (
        <button type="button" className={btnSecondary} onClick={props.onRetry}>
          {s.app.retry}
        </button>
      )}
    </div>
  );
}

export function Notice(props: { children: React.ReactNode; tone?: 'info' | 'warn' | 'ok' }) {
  const tone = {
    info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100',
    warn: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100',
    ok: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100',
  }[props.tone ?? 'info'];
  return (
    <div role="status" className={`rounded-md border px-3 py-2 text-sm ${tone}`}>
      {props.children}
    </div>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 p-4 text-sm text-slate-500">
      <span
        aria-hidden
        className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-sky-500"
      />
      {props.label ?? s.app.loading}
    </div>
  );
}
