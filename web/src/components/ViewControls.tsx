import { s } from '../i18n';
import {
  FIXED_COLUMNS,
  TABLE_COLUMNS,
  toggleColumn,
  type DashView,
  type TableColumn,
} from '../lib/view-prefs';
import { btnPrimary, btnSecondary, card, focusRing, label } from './ui';

const VIEWS: DashView[] = ['cards', 'table'];

/** Cards or table, and which table columns show (both remembered in this browser). */
export function ViewControls(props: {
  view: DashView;
  onView: (v: DashView) => void;
  columns: readonly TableColumn[];
  onColumns: (c: TableColumn[]) => void;
}) {
  return (
    <div className="flex items-end gap-2">
      <div>
        <span className={label} id="dash-view-label">
          {s.fleet.viewLabel}
        </span>
        <div role="radiogroup" aria-labelledby="dash-view-label" className="flex">
          {VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={props.view === v}
              className={`${props.view === v ? btnPrimary : btnSecondary} first:rounded-r-none last:rounded-l-none`}
              onClick={() => props.onView(v)}
            >
              {v === 'cards' ? s.fleet.viewCards : s.fleet.viewTable}
            </button>
          ))}
        </div>
      </div>
      {props.view === 'table' && (
        <details className="relative">
          <summary className={`${btnSecondary} cursor-pointer list-none`}>
            {s.fleet.columns}
          </summary>
          <fieldset
            className={`${card} absolute right-0 z-30 mt-1 grid w-56 gap-1 p-2 text-sm shadow-lg`}
          >
            <legend className="sr-only">{s.fleet.columns}</legend>
            {TABLE_COLUMNS.map((c) => (
              <label key={c} className={`flex items-center gap-2 rounded px-1 ${focusRing}`}>
                <input
                  type="checkbox"
                  checked={props.columns.includes(c)}
                  disabled={FIXED_COLUMNS.includes(c)}
                  onChange={() => props.onColumns(toggleColumn(props.columns, c))}
                />
                {s.fleet.col[c]}
              </label>
            ))}
          </fieldset>
        </details>
      )}
    </div>
  );
}
