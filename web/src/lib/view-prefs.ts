/** Dashboard view choices kept in this browser (localStorage), not in the address. */

export type DashView = 'cards' | 'table';

export const TABLE_COLUMNS = [
  'status',
  'name',
  'os',
  'cpu',
  'memory',
  'disk',
  'network',
  'traffic',
  'load',
  'uptime',
  'temperature',
  'lastSeen',
  'alerts',
] as const;
export type TableColumn = (typeof TABLE_COLUMNS)[number];

/** Always shown: a row without them cannot be told apart or opened. */
export const FIXED_COLUMNS: readonly TableColumn[] = ['status', 'name'];

export const DEFAULT_COLUMNS: readonly TableColumn[] = [
  'status',
  'name',
  'cpu',
  'memory',
  'disk',
  'network',
  'traffic',
  'uptime',
  'lastSeen',
];

const VIEW_KEY = 'dash.dashboard.view';
const COLUMNS_KEY = 'dash.dashboard.columns';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: defaults
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage disabled or full: the choice lasts for this page only
  }
}

export function loadView(): DashView {
  return read(VIEW_KEY) === 'table' ? 'table' : 'cards';
}

export function saveView(view: DashView): void {
  write(VIEW_KEY, view);
}

/** Saved columns in the canonical order; unknown names are dropped, fixed ones always present. */
export function loadColumns(): TableColumn[] {
  const raw = read(COLUMNS_KEY);
  if (raw === null) return [...DEFAULT_COLUMNS];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    return [...DEFAULT_COLUMNS];
  }
  if (!Array.isArray(list)) return [...DEFAULT_COLUMNS];
  const chosen = new Set<unknown>([...(list as unknown[]), ...FIXED_COLUMNS]);
  return TABLE_COLUMNS.filter((c) => chosen.has(c));
}

export function saveColumns(columns: readonly TableColumn[]): void {
  write(COLUMNS_KEY, JSON.stringify(columns));
}

/** Turns one column on or off, keeping the canonical order and the fixed columns. */
export function toggleColumn(columns: readonly TableColumn[], col: TableColumn): TableColumn[] {
  if (FIXED_COLUMNS.includes(col)) return [...columns];
  const on = new Set(columns);
  if (on.has(col)) on.delete(col);
  else on.add(col);
  return TABLE_COLUMNS.filter((c) => on.has(c));
}
