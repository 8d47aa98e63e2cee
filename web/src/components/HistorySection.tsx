import { useState } from 'react';
import type { NodeView } from '../api/front';
import type { HistoryAgg, HistoryRange } from '../api/metrics';
import { s } from '../i18n';
import { reportTimeSec } from '../lib/live';
import type { TimeWindow } from './Chart';
import { HistoryChart, type SeriesSpec } from './HistoryChart';
import { focusRing, input, label } from './ui';

const c = s.detail.charts;
const x = s.detail.series;
const sc = s.charts;

/** Length of each range in seconds: the x axis always spans all of it. */
export const RANGE_SECONDS: Record<HistoryRange, number> = {
  '30m': 1800,
  '1h': 3600,
  '12h': 43_200,
  '24h': 86_400,
  '1w': 604_800,
  '15d': 1_296_000,
  '30d': 2_592_000,
};

/** Ranges whose charts grow with each report of the node (raw points a few seconds apart). */
export const LIVE_RANGES: readonly HistoryRange[] = ['30m', '1h'];
/** Ranges that show the maximum beside the average unless the viewer picks otherwise. */
const LONG_RANGES: readonly HistoryRange[] = ['1w', '15d', '30d'];

export type AggMode = 'avg' | 'max' | 'both';

const AGGS_OF: Record<AggMode, readonly HistoryAgg[]> = {
  avg: ['avg'],
  max: ['max'],
  both: ['avg', 'max'],
};

function AggPicker(props: { value: AggMode; onChange: (m: AggMode) => void }) {
  return (
    <div role="radiogroup" aria-label={sc.aggLabel} className="flex flex-wrap gap-1">
      {(['avg', 'max', 'both'] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="radio"
          aria-checked={props.value === m}
          onClick={() => props.onChange(m)}
          className={`rounded-md px-2 py-0.5 text-xs ${focusRing} ${
            props.value === m
              ? 'bg-slate-700 text-white dark:bg-slate-200 dark:text-slate-900'
              : 'bg-white text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-600'
          }`}
        >
          {sc.aggs[m]}
        </button>
      ))}
    </div>
  );
}

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
export function HistorySection({
  view,
  range,
  now,
}: {
  view: NodeView;
  range: HistoryRange;
  /** Wall clock, epoch ms. */
  now: number;
}) {
  const id = view.node.id;
  const live = LIVE_RANGES.includes(range);
  const nowSec = Math.floor(now / 1000);
  // Live ranges slide with the clock (3 s steps); the others end where they were opened, so
  // time that passes without a refetch is not drawn as an outage.
  const [anchor, setAnchor] = useState({ range, end: nowSec });
  if (anchor.range !== range) setAnchor({ range, end: nowSec });
  const end = live
    ? Math.max(nowSec - (nowSec % 3), reportTimeSec(view) ?? 0)
    : anchor.range === range
      ? anchor.end
      : nowSec;
  const [zoom, setZoom] = useState<{ range: HistoryRange; w: TimeWindow } | null>(null);
  const zoomed = zoom?.range === range ? zoom.w : null;
  const win: TimeWindow = zoomed ?? { min: end - RANGE_SECONDS[range], max: end };
  const onZoom = (w: TimeWindow | null) => setZoom(w ? { range, w } : null);
  const [picked, setPicked] = useState<AggMode | null>(null);
  const mode: AggMode = live ? 'avg' : (picked ?? (LONG_RANGES.includes(range) ? 'both' : 'avg'));

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
      aggs={AGGS_OF[mode]}
      window={win}
      keepFrom={end - RANGE_SECONDS[range]}
      live={live ? view : undefined}
      syncKey={`node-${id}`}
      onZoom={onZoom}
    />
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        {!live && <AggPicker value={mode} onChange={setPicked} />}
        <button
          type="button"
          onClick={() => setZoom(null)}
          disabled={!zoomed}
          className={`rounded-md px-2 py-0.5 text-xs ring-1 ring-slate-300 disabled:opacity-50 dark:ring-slate-600 ${focusRing}`}
        >
          {sc.resetZoom}
        </button>
        <span className="text-xs text-slate-500 dark:text-slate-400">{sc.zoomHint}</span>
      </div>
      <div className={grid}>
        {chart(c.cpu, 'ratio', [{ metric: 'cpu.usage_ratio', label: x.usage }])}
        {chart(sc.cpuTime, 'ratio', [
          { metric: 'cpu.iowait_ratio', label: sc.iowait },
          { metric: 'cpu.steal_ratio', label: sc.steal },
        ])}
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
