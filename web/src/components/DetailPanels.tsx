import type { NodeView, PressureResource } from '../api/front';
import { formatBytes, formatCelsius, formatNumber, formatRate, formatRatio } from '../lib/format';
import { s } from '../i18n';
import { card, table, td, th } from './ui';

function Panel(props: { title: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <section className={`${card} min-w-0 p-3`} aria-label={props.title}>
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold">{props.title}</h2>
        {props.aside && <span className="text-xs text-slate-500">{props.aside}</span>}
      </div>
      <div className="overflow-x-auto">{props.children}</div>
    </section>
  );
}

export function MountsPanel({ view }: { view: NodeView }) {
  if (view.disk.mounts.length === 0) return null;
  return (
    <Panel title={s.detail.mounts}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.mountpoint}</th>
            <th className={th}>{s.detail.fsType}</th>
            <th className={th}>{s.detail.used}</th>
            <th className={th}>{s.detail.size}</th>
            <th className={th}>%</th>
          </tr>
        </thead>
        <tbody>
          {view.disk.mounts.map((m) => (
            <tr key={m.mountpoint}>
              <td className={`${td} font-mono text-xs break-all`}>{m.mountpoint}</td>
              <td className={td}>{m.fs_type || s.app.none}</td>
              <td className={`${td} tabular-nums`}>{formatBytes(m.used_bytes)}</td>
              <td className={`${td} tabular-nums`}>{formatBytes(m.total_bytes)}</td>
              <td className={`${td} tabular-nums`}>{formatRatio(m.used_ratio)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function DiskIoPanel({ view }: { view: NodeView }) {
  const devices = Object.entries(view.disk.io.by_device ?? {});
  if (devices.length === 0) return null;
  return (
    <Panel title={s.detail.diskIo}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.device}</th>
            <th className={th}>{s.node.read}</th>
            <th className={th}>{s.node.write}</th>
            <th className={th}>{s.detail.iops}</th>
          </tr>
        </thead>
        <tbody>
          {devices.map(([name, io]) => (
            <tr key={name}>
              <td className={`${td} font-mono text-xs`}>{name}</td>
              <td className={`${td} tabular-nums`}>{formatRate(io.read_bps)}</td>
              <td className={`${td} tabular-nums`}>{formatRate(io.write_bps)}</td>
              <td className={`${td} tabular-nums`}>{formatNumber(io.iops, 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function InterfacesPanel({ view }: { view: NodeView }) {
  const ifaces = view.network.by_interface ?? [];
  if (ifaces.length === 0) return null;
  return (
    <Panel title={s.detail.interfaces}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.iface}</th>
            <th className={th}>{s.detail.rateIn}</th>
            <th className={th}>{s.detail.rateOut}</th>
            <th className={th}>{s.detail.totalIn}</th>
            <th className={th}>{s.detail.totalOut}</th>
          </tr>
        </thead>
        <tbody>
          {ifaces.map((i) => (
            <tr key={i.name}>
              <td className={`${td} font-mono text-xs`}>{i.name}</td>
              <td className={`${td} tabular-nums`}>{formatRate(i.recv_bps)}</td>
              <td className={`${td} tabular-nums`}>{formatRate(i.sent_bps)}</td>
              <td className={`${td} tabular-nums`}>{formatBytes(i.bytes_recv)}</td>
              <td className={`${td} tabular-nums`}>{formatBytes(i.bytes_sent)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

export function SmartPanel({ view }: { view: NodeView }) {
  const smart = view.disk.smart;
  if (!smart) return null;
  return (
    <Panel title={s.detail.smart} aside={s.detail.smartStatus(smart.status)}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.device}</th>
            <th className={th}>{s.detail.model}</th>
            <th className={th}>{s.detail.health}</th>
            <th className={th}>{s.node.temperature}</th>
            <th className={th}>{s.detail.powerOnHours}</th>
            <th className={th}>{s.detail.lifetimeUsed}</th>
            <th className={th}>{s.detail.failingAttrs}</th>
          </tr>
        </thead>
        <tbody>
          {smart.devices.map((d) => {
            const failing = (d.failing_attrs ?? []).filter((a) => a.when_failed);
            const bad = d.health?.toLowerCase() === 'failed' || failing.length > 0;
            return (
              <tr key={`${d.name}|${d.source}`}>
                <td className={`${td} font-mono text-xs`}>{d.name}</td>
                <td className={td}>{d.model ?? s.app.none}</td>
                <td className={`${td} ${bad ? 'font-semibold text-rose-600' : ''}`}>
                  {d.health ?? d.status}
                </td>
                <td className={`${td} tabular-nums`}>{formatCelsius(d.temp_c)}</td>
                <td className={`${td} tabular-nums`}>{formatNumber(d.power_on_hours, 0)}</td>
                <td className={`${td} tabular-nums`}>
                  {d.lifetime_used_percent === undefined
                    ? s.app.none
                    : s.units.percent(String(d.lifetime_used_percent))}
                </td>
                <td className={td}>
                  {failing.length === 0
                    ? s.app.none
                    : failing.map((a) => `${a.name} (${a.when_failed})`).join(', ')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}

export function RaidPanel({ view }: { view: NodeView }) {
  const raid = view.raid;
  if (!raid || raid.arrays.length === 0) return null;
  return (
    <Panel title={s.detail.raid}>
      <ul className="space-y-2">
        {raid.arrays.map((a) => {
          const healthy = a.health.toLowerCase() === 'healthy';
          return (
            <li key={a.name} className="rounded border border-slate-200 p-2 dark:border-slate-700">
              <div className="flex flex-wrap items-baseline gap-2">
                <span className="font-mono text-sm font-semibold">{a.name}</span>
                <span
                  className={`rounded px-1.5 text-xs font-medium ${healthy ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100' : 'bg-rose-100 text-rose-800 dark:bg-rose-900 dark:text-rose-100'}`}
                >
                  {a.health}
                </span>
                <span className="text-xs text-slate-500">{a.status}</span>
              </div>
              <p className="text-xs">{s.detail.raidDevices(a.active, a.working, a.failed)}</p>
              {a.sync_status && (
                <p className="text-xs">
                  {s.detail.sync}: {a.sync_status} {a.sync_progress ?? ''}
                </p>
              )}
              <p className="text-xs">
                {s.detail.raidMembers}: {a.members.map((m) => `${m.name} (${m.state})`).join(', ')}
              </p>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function ThermalPanel({ view }: { view: NodeView }) {
  const thermal = view.thermal;
  if (!thermal || thermal.sensors.length === 0) return null;
  return (
    <Panel title={s.detail.thermal} aside={thermal.status}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.sensor}</th>
            <th className={th}>{s.detail.kind}</th>
            <th className={th}>{s.node.temperature}</th>
            <th className={th}>{s.detail.high}</th>
            <th className={th}>{s.detail.critical}</th>
          </tr>
        </thead>
        <tbody>
          {thermal.sensors.map((x) => (
            <tr key={x.sensor_key}>
              <td className={td}>{x.name}</td>
              <td className={td}>{x.kind}</td>
              <td className={`${td} tabular-nums`}>{formatCelsius(x.temp_c)}</td>
              <td className={`${td} tabular-nums`}>{formatCelsius(x.high_c)}</td>
              <td className={`${td} tabular-nums`}>{formatCelsius(x.critical_c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

const RESOURCES = ['cpu', 'memory', 'io'] as const;

function pressureRows(name: string, r: PressureResource | undefined) {
  if (!r) return [];
  return (['some', 'full'] as const)
    .filter((k) => r[k])
    .map((k) => ({ key: `${name}.${k}`, name, kind: k, stats: r[k]! }));
}

export function PressurePanel({ view }: { view: NodeView }) {
  const p = view.pressure;
  if (!p) return null;
  const rows = RESOURCES.flatMap((r) => pressureRows(r, p[r]));
  if (rows.length === 0) return null;
  return (
    <Panel title={s.detail.pressure}>
      <table className={table}>
        <thead>
          <tr>
            <th className={th}>{s.detail.resource}</th>
            <th className={th}>avg10</th>
            <th className={th}>avg60</th>
            <th className={th}>avg300</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td className={td}>
                {row.name} <span className="text-slate-500">{s.detail[row.kind]}</span>
              </td>
              <td className={`${td} tabular-nums`}>
                {s.units.percent(row.stats.avg10.toFixed(2))}
              </td>
              <td className={`${td} tabular-nums`}>
                {s.units.percent(row.stats.avg60.toFixed(2))}
              </td>
              <td className={`${td} tabular-nums`}>
                {s.units.percent(row.stats.avg300.toFixed(2))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
