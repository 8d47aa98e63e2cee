import { useState } from 'react';
import {
  createAdjustment,
  fetchAdjustments,
  revokeAdjustment,
  type AdjustmentDirection,
  type TrafficAdjustment,
  type TrafficSummary,
} from '../../api/traffic';
import { ErrorMessage, Loading, Notice } from '../../components/Feedback';
import {
  btnDanger,
  btnPrimary,
  btnSecondary,
  card,
  input,
  label,
  muted,
} from '../../components/ui';
import { useAsync } from '../../hooks/useAsync';
import { s } from '../../i18n';
import { formatBytes, formatDate, formatDateTime } from '../../lib/format';
import {
  BILL_UNITS,
  billDifference,
  billToBytes,
  formatDecimalBytes,
  type BillUnit,
} from '../../lib/traffic';

const t = s.traffic.calibration;
const day = (iso: string) => formatDate(iso);

function BillForm(props: {
  id: string;
  iface: string;
  closed: TrafficSummary[];
  onRecorded: () => void;
}) {
  const first = props.closed[0];
  const [cycle, setCycle] = useState(first?.cycle.start ?? '');
  const chosen = props.closed.find((c) => c.cycle.start === cycle) ?? first;
  const [direction, setDirection] = useState<AdjustmentDirection>(
    first?.stats.selected_bytes_direction ?? 'out',
  );
  const [amount, setAmount] = useState('');
  const [unit, setUnit] = useState<BillUnit>('GB');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [invalid, setInvalid] = useState(false);
  if (!chosen) return <Notice>{t.noClosed}</Notice>;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const bytes = billToBytes(amount, unit);
    setInvalid(bytes === undefined);
    setError(null);
    if (bytes === undefined) return;
    setBusy(true);
    try {
      await createAdjustment(props.id, {
        iface: props.iface,
        cycle_start: chosen.cycle.start,
        direction,
        billed_bytes: bytes,
        note,
      });
      setAmount('');
      setNote('');
      props.onRecorded();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="grid gap-3 sm:grid-cols-6" onSubmit={(e) => void submit(e)}>
      <div className="sm:col-span-2">
        <label htmlFor="bill-cycle" className={label}>
          {t.cycle}
        </label>
        <select
          id="bill-cycle"
          className={input}
          value={chosen.cycle.start}
          onChange={(e) => setCycle(e.target.value)}
        >
          {props.closed.map((c) => (
            <option key={c.cycle.start} value={c.cycle.start}>
              {day(c.cycle.start)} – {day(c.cycle.end)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="bill-direction" className={label}>
          {t.direction}
        </label>
        <select
          id="bill-direction"
          className={input}
          value={direction}
          onChange={(e) => setDirection(e.target.value as AdjustmentDirection)}
        >
          {(['out', 'in', 'total'] as const).map((d) => (
            <option key={d} value={d}>
              {t.directions[d]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="bill-amount" className={label}>
          {t.amount}
        </label>
        <input
          id="bill-amount"
          className={input}
          inputMode="decimal"
          value={amount}
          aria-invalid={invalid}
          onChange={(e) => setAmount(e.target.value)}
        />
      </div>
      <div>
        <label htmlFor="bill-unit" className={label}>
          {t.unit}
        </label>
        <select
          id="bill-unit"
          className={input}
          value={unit}
          onChange={(e) => setUnit(e.target.value as BillUnit)}
        >
          {(Object.keys(BILL_UNITS) as BillUnit[]).map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-6">
        <label htmlFor="bill-note" className={label}>
          {t.note}
        </label>
        <input
          id="bill-note"
          className={input}
          maxLength={255}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-6">
        <button type="submit" className={btnPrimary} disabled={busy}>
          {t.record}
        </button>
        {invalid && <span className="text-sm text-rose-700 dark:text-rose-300">{t.badAmount}</span>}
        {error !== null && <ErrorMessage error={error} />}
      </div>
    </form>
  );
}

function Row(props: { a: TrafficAdjustment; onRevoke: (a: TrafficAdjustment) => Promise<void> }) {
  const { a } = props;
  const [confirm, setConfirm] = useState(false);
  const c = t.columns;
  return (
    <tr className="border-t border-slate-200 align-top dark:border-slate-700">
      <td className="py-1 pr-2" data-label={c.cycle}>
        {day(a.cycle_start)} – {day(a.cycle_end)}
        {!a.matches_cycle && <div className={`text-xs ${muted}`}>{t.cycleChanged}</div>}
      </td>
      <td className="py-1 pr-2">{t.directions[a.direction]}</td>
      <td className="py-1 pr-2" title={`${a.billed_bytes} B`}>
        {formatDecimalBytes(a.billed_bytes)}
        <div className={`text-xs ${muted}`}>{formatBytes(a.billed_bytes)}</div>
      </td>
      <td className="py-1 pr-2" title={`${a.raw_bytes} B`}>
        {formatDecimalBytes(a.raw_bytes)}
        <div className={`text-xs ${muted}`}>{formatBytes(a.raw_bytes)}</div>
      </td>
      <td className="py-1 pr-2">{billDifference(a.billed_bytes, a.raw_bytes)}</td>
      <td className="max-w-48 py-1 pr-2 break-words">{a.note}</td>
      <td className="py-1 pr-2">
        {t.status[a.status]}
        <div className={`text-xs ${muted}`}>{formatDateTime(a.revoked_at ?? a.created_at)}</div>
      </td>
      <td className="py-1">
        {a.status === 'active' &&
          (confirm ? (
            <span className="flex gap-1">
              <button
                type="button"
                className={btnDanger}
                onClick={() => void props.onRevoke(a).finally(() => setConfirm(false))}
              >
                {t.revoke}
              </button>
              <button type="button" className={btnSecondary} onClick={() => setConfirm(false)}>
                {s.app.cancel}
              </button>
            </span>
          ) : (
            <button
              type="button"
              className={btnSecondary}
              aria-label={`${t.revoke} ${day(a.cycle_start)}`}
              onClick={() => setConfirm(true)}
            >
              {t.revoke}
            </button>
          ))}
      </td>
    </tr>
  );
}

/** Admins record, see and revoke the provider's bills of this interface. */
export function CalibrationPanel(props: {
  id: string;
  iface: string;
  closed: TrafficSummary[];
  onChanged: () => void;
}) {
  const list = useAsync(
    (sig) => fetchAdjustments(props.id, props.iface, sig),
    [props.id, props.iface],
  );
  const [done, setDone] = useState('');
  const [error, setError] = useState<unknown>(null);
  const changed = (text: string) => {
    setDone(text);
    list.reload();
    props.onChanged();
  };
  const revoke = async (a: TrafficAdjustment) => {
    setError(null);
    try {
      await revokeAdjustment(props.id, a.id);
      changed(t.revoked);
    } catch (err) {
      setError(err);
    }
  };
  const c = t.columns;
  return (
    <section className={`${card} space-y-3 p-3`} aria-label={t.title}>
      <h2 className="font-semibold">{t.title}</h2>
      <p className={`text-sm ${muted}`}>{t.help}</p>
      <BillForm
        id={props.id}
        iface={props.iface}
        closed={props.closed}
        onRecorded={() => changed(t.recorded)}
      />
      {done && (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-300">
          {done}
        </p>
      )}
      {error !== null && <ErrorMessage error={error} />}
      {list.error !== null && !list.data ? (
        <ErrorMessage error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.items.length === 0 ? (
        <p className={`text-sm ${muted}`}>{t.none}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" aria-label={t.title}>
            <thead className={muted}>
              <tr>
                {[c.cycle, c.direction, c.billed, c.dash, c.difference, c.note, c.status].map(
                  (h) => (
                    <th key={h} className="py-1 pr-2 font-medium">
                      {h}
                    </th>
                  ),
                )}
                <th className="py-1" />
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {list.data.items.map((a) => (
                <Row key={a.id} a={a} onRevoke={revoke} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
