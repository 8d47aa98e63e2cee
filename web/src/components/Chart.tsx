import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { axisLabels, axisWidth, maxTicksFor, niceScale, type NiceScale } from '../lib/chart-scale';
import { formatInstant, formatInstantSec, timeAxisLabels } from '../lib/datetime';
import { formatValue, type ValueKind } from '../lib/format';
import type { AlignedColumns } from '../lib/series';

const PALETTE = ['#0284c7', '#f59e0b', '#10b981', '#e11d48', '#8b5cf6', '#64748b'];
const AXIS = '#94a3b8';
const GRID = 'rgba(148, 163, 184, 0.2)';
/** Axis text font; the y axis is as wide as its widest label in this font. */
export const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", sans-serif';
/** Height of the x axis and the legend below the plot, in CSS pixels (for the tick count). */
const CHROME_PX = 50;

export interface ChartSeries {
  label: string;
  /** Palette slot; series of one metric share it (average solid, maximum dashed). */
  color?: number;
  dash?: number[];
}

/** A time window in epoch seconds. */
export interface TimeWindow {
  min: number;
  max: number;
}

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** Text width in CSS pixels in the axis font; a rough estimate where there is no canvas. */
export function measureAxisText(text: string): number {
  if (measureCtx === undefined) {
    try {
      measureCtx =
        typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent)
          ? null
          : document.createElement('canvas').getContext('2d');
    } catch {
      measureCtx = null;
    }
  }
  if (!measureCtx) return text.length * 7.5;
  measureCtx.font = AXIS_FONT;
  return measureCtx.measureText(text).width;
}

/**
 * uPlot on a canvas sized to its container. The plot is built once per series layout and fed
 * new data with setData, which is what keeps long ranges cheap.
 *
 * The x axis always shows `window` (the chosen range, or the zoom), so time without reports is
 * visible as empty space; the y axis has round ticks in the unit shown and is as wide as its
 * widest label. Charts with the same `syncKey` share the cursor; dragging selects a zoom that
 * `onZoom` reports, and a double click asks for the zoom to be reset (onZoom(null)).
 */
export function Chart(props: {
  data: AlignedColumns;
  series: ChartSeries[];
  kind: ValueKind;
  title: string;
  window: TimeWindow;
  /** Legend times with seconds (raw ranges). */
  seconds?: boolean;
  syncKey?: string;
  onZoom?: (w: TimeWindow | null) => void;
  height?: number;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const kindRef = useRef(props.kind);
  const dataRef = useRef(props.data);
  const windowRef = useRef(props.window);
  const secondsRef = useRef(props.seconds ?? false);
  const onZoomRef = useRef(props.onZoom);
  const height = props.height ?? 180;
  const layout = JSON.stringify(props.series);
  const syncKey = props.syncKey;

  useEffect(() => {
    kindRef.current = props.kind;
    dataRef.current = props.data;
    windowRef.current = props.window;
    secondsRef.current = props.seconds ?? false;
    onZoomRef.current = props.onZoom;
  });

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const series = JSON.parse(layout) as ChartSeries[];
    // uPlot reads one data column per series; a mismatch is a caller bug, never drawn.
    if (dataRef.current.length !== series.length + 1) return;
    const fmt = (v: number | null) =>
      v === null || v === undefined ? '—' : formatValue(kindRef.current, v);
    let scale: NiceScale | null = null;
    let lastSize = 0;
    const opts: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height,
      cursor: {
        drag: { x: true, y: false, setScale: false },
        ...(syncKey ? { sync: { key: syncKey } } : {}),
        bind: {
          dblclick: () => () => {
            onZoomRef.current?.(null);
            return null;
          },
        },
      },
      legend: { show: true, live: true },
      scales: {
        x: { time: true },
        y: {
          range: (_u, min, max) => {
            scale = niceScale(min, max, kindRef.current, maxTicksFor(height - CHROME_PX));
            return [scale.min, scale.max];
          },
        },
      },
      axes: [
        {
          stroke: AXIS,
          font: AXIS_FONT,
          grid: { stroke: GRID },
          ticks: { stroke: GRID },
          values: (_u, splits, _i, _space, incr) => timeAxisLabels(splits, incr),
        },
        {
          stroke: AXIS,
          font: AXIS_FONT,
          grid: { stroke: GRID },
          ticks: { stroke: GRID, size: 6 },
          gap: 4,
          splits: (_u, _i, min, max) =>
            scale && scale.min === min && scale.max === max
              ? scale.ticks
              : niceScale(min, max, kindRef.current, maxTicksFor(height - CHROME_PX)).ticks,
          values: (_u, splits) => {
            const labels = axisLabels(kindRef.current, splits);
            // What the y axis shows, for browser tests that check no label is clipped.
            box.dataset.yLabels = JSON.stringify(labels);
            return labels;
          },
          size: (_u, values, _i, cycle) => {
            // uPlot re-measures until the size settles; the labels do not change with it.
            if (cycle > 1 && lastSize) return lastSize;
            lastSize = axisWidth(values ?? [], measureAxisText, 10);
            return lastSize;
          },
        },
      ],
      series: [
        {
          value: (_u, v) =>
            v === null ? '—' : (secondsRef.current ? formatInstantSec : formatInstant)(v * 1000),
        },
        ...series.map((x, i) => ({
          label: x.label,
          stroke: PALETTE[(x.color ?? i) % PALETTE.length],
          width: 1.5,
          ...(x.dash ? { dash: x.dash } : {}),
          value: (_u: uPlot, v: number | null) => fmt(v),
        })),
      ],
      hooks: {
        setSelect: [
          (u) => {
            const { left, width } = u.select;
            if (width < 3) return;
            const min = u.posToVal(left, 'x');
            const max = u.posToVal(left + width, 'x');
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            if (max > min) onZoomRef.current?.({ min, max });
          },
        ],
      },
    };
    const plot = new uPlot(opts, dataRef.current, box);
    plot.setScale('x', { ...windowRef.current });
    plotRef.current = plot;
    const observer = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(200, box.clientWidth), height });
    });
    observer.observe(box);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, [layout, height, syncKey]);

  const { min, max } = props.window;
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot || props.data.length !== plot.series.length) return;
    plot.setData(props.data, false);
    plot.setScale('x', { min, max });
  }, [props.data, min, max]);

  return (
    <div
      ref={boxRef}
      role="img"
      aria-label={props.title}
      data-window={`${min}-${max}`}
      className="w-full min-w-0"
    />
  );
}
