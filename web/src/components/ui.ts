/** Shared class strings so every control looks and focuses the same way. */
export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-500';

export const btn = `inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${focusRing}`;
export const btnPrimary = `${btn} bg-(--dash-accent) text-(--dash-accent-text) hover:brightness-110`;
export const btnSecondary = `${btn} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700`;
export const btnDanger = `${btn} bg-rose-600 text-white hover:bg-rose-700`;
export const btnGhost = `${btn} text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800`;

export const input = `block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 placeholder:text-slate-400 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 ${focusRing}`;

export const card =
  'rounded-lg border border-slate-200 bg-(--dash-surface) shadow-sm dark:border-slate-700';

export const label = 'mb-1 block text-xs font-medium text-slate-600 dark:text-slate-300';

export const muted = 'text-slate-500 dark:text-slate-400';

export const table = 'w-full text-left text-sm';
export const th =
  'border-b border-slate-200 px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:border-slate-700 dark:text-slate-400';
export const td = 'border-b border-slate-100 px-2 py-1.5 align-top dark:border-slate-700/60';
