import { useState } from 'react';
import type { NodeView } from '../api/front';
import type { HistoryRange } from '../api/metrics';
import { s } from '../i18n';
import { HistoryChart, type SeriesSpec } from './HistoryChart';
import { input, label } from './ui';

const c = s.detail.charts;
const x = s.detail.series;

function DeviceSelect(props: {
  id: string;
  value: string;
  options: { value: string; text: string }[];
  onChange: (v: string) => void;
}) {
  return (
    <div className="w-full sm:w-64">
      <label htmlFor={props.id} className={label}>
        {s.detail.deviceLabel}
      </label>
      <select
        id={props.id}
        className={input}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  );
}

const grid = 'grid gap-3 lg:grid-cols-2';

/** Every metric of the history API for one node and range, grouped by subject. */
export function HistorySection({ view, range }: { view: NodeView; range: HistoryRange }) {
  const id = view.node.id;
  const ioDevices = Object.keys(view.disk.io.by_device ?? {});
  const mounts = view.disk.mounts.map((m) => m.mountpoint);
  const tempDevices = view.disk.temperature_devices ?? [];
  const [ioDevice, setIoDevice] = useState('');
  const [mount, setMount] = useState('');
  const [tempDevice, setTempDevice] = useState('');
  const io = ioDevices.includes(ioDevice) ? ioDevice : (ioDevices[0] ?? '');
  const mp = mounts.includes(mount) ? mount : (mounts[0] ?? '');
  const hasCpuTemp = (view.thermal?.sensors ?? []).some((t) => t.kind === 'cpu');

  const chart = (
    title: string,
    kind: Parameters<typeof HistoryChart>[0]['kind'],
    series: SeriesSpec[],
  ) => (
    <HistoryChart
      key={title}
      serverId={id}
      range={range}
      title={title}
      kind={kind}
      series={series}
    />
  );

  return (
    <div className="space-y-4">
      <div className={grid}>
        {chart(c.cpu, 'ratio', [{ metric: 'cpu.usage_ratio', label: x.usage }])}
        {chart(c.load, 'load', [
          { metric: 'cpu.load1', label: x.load1 },
          { metric: 'cpu.load5', label: x.load5 },
          { metric: 'cpu.load15', label: x.load15 },
        ])}
        {chart(c.memRatio, 'ratio', [{ metric: 'mem.used_ratio', label: x.usage }])}
        {chart(c.memUsed, 'bytes', [{ metric: 'mem.used', label: s.detail.used }])}
        {chart(c.network, 'rate', [
          { metric: 'net.recv_bps', label: x.recv },
          { metric: 'net.sent_bps', label: x.sent },
        ])}
        {chart(c.connections, 'count', [
          { metric: 'conn.tcp', label: x.tcp },
          { metric: 'conn.udp', label: x.udp },
        ])}
        {chart(c.processes, 'count', [{ metric: 'proc.count', label: s.node.processes }])}
        {hasCpuTemp &&
          chart(c.cpuTemp, 'celsius', [{ metric: 'cpu.temp_c', label: s.node.temperature }])}
      </div>

      {ioDevices.length > 0 && (
        <section aria-label={s.detail.disks} className="space-y-2">
          <DeviceSelect
            id="io-device"
            value={io}
            onChange={setIoDevice}
            options={ioDevices.map((d) => ({ value: d, text: d }))}
          />
          <div className={grid}>
            {chart(c.diskThroughput, 'rate', [
              { metric: 'disk.read_bps', label: x.read, device: io },
              { metric: 'disk.write_bps', label: x.write, device: io },
            ])}
            {chart(c.diskIops, 'count', [
              { metric: 'disk.read_iops', label: x.read, device: io },
              { metric: 'disk.write_iops', label: x.write, device: io },
              { metric: 'disk.iops', label: x.total, device: io },
            ])}
          </div>
        </section>
      )}

      {mounts.length > 0 && (
        <section aria-label={s.detail.mounts} className="space-y-2">
          <DeviceSelect
            id="mount-device"
            value={mp}
            onChange={setMount}
            options={mounts.map((d) => ({ value: d, text: d }))}
          />
          <div className={grid}>
            {chart(c.diskRatio, 'ratio', [
              { metric: 'disk.used_ratio', label: x.usage, device: mp },
            ])}
            {chart(c.diskUsed, 'bytes', [
              { metric: 'disk.used', label: s.detail.used, device: mp },
            ])}
          </div>
        </section>
      )}

      {tempDevices.length > 0 && (
        <section aria-label={c.diskTemp} className="space-y-2">
          <DeviceSelect
            id="temp-device"
            value={tempDevice}
            onChange={setTempDevice}
            options={[
              { value: '', text: s.detail.allDisks },
              ...tempDevices.map((d) => ({ value: d, text: d })),
            ]}
          />
          <div className={grid}>
            {chart(c.diskTemp, 'celsius', [
              {
                metric: 'disk.temp_c',
                label: tempDevice || s.detail.allDisks,
                device: tempDevice || undefined,
              },
            ])}
          </div>
        </section>
      )}

      {view.pressure && (
        <div className={grid}>
          {(['cpu', 'memory', 'io'] as const)
            .filter((r) => view.pressure?.[r])
            .map((r) =>
              chart(c.pressure(r), 'percent', [
                ...[10, 60, 300].map((w) => ({
                  metric: `pressure.${r}.some_avg${w}`,
                  label: `${s.detail.some} ${w}s`,
                })),
                ...(r === 'cpu'
                  ? []
                  : [10, 60, 300].map((w) => ({
                      metric: `pressure.${r}.full_avg${w}`,
                      label: `${s.detail.full} ${w}s`,
                    }))),
              ]),
            )}
        </div>
      )}
    </div>
  );
}
