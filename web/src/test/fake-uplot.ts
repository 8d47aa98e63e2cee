/**
 * uPlot needs a real canvas; tests replace it with this recorder of options, data and the x
 * window, and call the recorded option functions (axes, scales, hooks) themselves:
 * vi.mock('uplot', () => import('../../test/fake-uplot')).
 */
type Fn = (...args: unknown[]) => unknown;

export interface FakePlotOptions {
  series: { label?: string; dash?: number[]; value?: Fn }[];
  axes: { size?: Fn; values?: Fn; splits?: Fn }[];
  scales: { y: { range: Fn } };
  hooks: { setSelect: Fn[] };
  cursor: { sync?: { key: string } };
}

export const plots: FakePlot[] = [];

export default class FakePlot {
  opts: FakePlotOptions;
  data: unknown[][];
  x: { min: number; max: number } | null = null;
  destroyed = false;

  /** The chart's title (its container's accessible name). */
  title: string;

  constructor(opts: unknown, data: unknown[][], box?: HTMLElement) {
    this.opts = opts as FakePlotOptions;
    this.data = data;
    this.title = box?.getAttribute('aria-label') ?? '';
    // Real uPlot fails on a data column missing for a series.
    if (data.length !== this.opts.series.length) {
      throw new Error(`${data.length} data columns for ${this.opts.series.length} series`);
    }
    plots.push(this);
  }

  get series(): unknown[] {
    return this.opts.series;
  }

  setData(d: unknown[][]) {
    if (d.length !== this.opts.series.length) throw new Error('data columns ≠ series');
    this.data = d;
  }

  setScale(key: string, w: { min: number; max: number }) {
    if (key === 'x') this.x = { ...w };
  }

  setSelect() {}
  setSize() {}
  destroy() {
    this.destroyed = true;
  }

  /** Series labels after the x series. */
  get labels(): string[] {
    return this.opts.series.slice(1).map((s) => s.label ?? '');
  }
}

/** Live (not destroyed) plots whose series labels are exactly these. */
export function plotsWith(...labels: string[]): FakePlot[] {
  return plots.filter((p) => !p.destroyed && p.labels.join('|') === labels.join('|'));
}

/** The live plot of the chart with this title. */
export function plotTitled(title: string): FakePlot | undefined {
  return plots.find((p) => !p.destroyed && p.title === title);
}
