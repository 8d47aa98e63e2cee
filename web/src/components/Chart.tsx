import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { AlignedColumns } from '../lib/series';

const PALETTE = ['#0284c7', '#f59e0b', '#10b981', '#e11d48', '#8b5cf6', '#64748b'];
const AXIS = '#94a3b8';
const GRID = 'rgba(148, 163, 184, 0.2)';

export interface ChartSeries {
  label: string;
}

/**
 * uPlot on a canvas sized to its container. The plot is built once per series layout and fed
 * new data with setData, which is what keeps long ranges cheap.
 */
export function Chart(props: {
  data: AlignedColumns;
  series: ChartSeries[];
  format: (v: number) => string;
  title: string;
  height?: number;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const formatRef = useRef(props.format);
  const dataRef = useRef(props.data);
  const height = props.height ?? 180;
  const layout = props.series.map((x) => x.label).join('\u0000');

  useEffect(() => {
    formatRef.current = props.format;
    dataRef.current = props.data;
  });

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const labels = layout.split('\u0000');
    const fmt = (v: number | null) => (v === null ? '—' : formatRef.current(v));
    const opts: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height,
      cursor: { drag: { x: true, y: false } },
      legend: { show: true, live: true },
      scales: { x: { time: true } },
      axes: [
        { stroke: AXIS, grid: { stroke: GRID }, ticks: { stroke: GRID } },
        {
          stroke: AXIS,
          grid: { stroke: GRID },
          ticks: { stroke: GRID },
          size: 70,
          values: (_u, vals) => vals.map((v) => fmt(v)),
        },
      ],
      series: [
        {},
        ...labels.map((label, i) => ({
          label,
          stroke: PALETTE[i % PALETTE.length],
          width: 1.5,
          value: (_u: uPlot, v: number | null) => fmt(v),
        })),
      ],
    };
    const plot = new uPlot(opts, dataRef.current, box);
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
  }, [layout, height]);

  useEffect(() => {
    plotRef.current?.setData(props.data);
  }, [props.data]);

  return <div ref={boxRef} role="img" aria-label={props.title} className="w-full min-w-0" />;
}
