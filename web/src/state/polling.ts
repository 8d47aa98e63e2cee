import { isAbort } from '../lib/errors';

export interface ResourceState<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (success or failure) arrives. */
  loading: boolean;
}

/**
 * A value polled from the API while someone watches it. The next request is scheduled only
 * after the previous one has finished, so a slow server is never hit by overlapping polls.
 */
export class PollingResource<T> {
  private state: ResourceState<T> = { data: undefined, error: null, loading: true };
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inflight: AbortController | null = null;
  private generation = 0;

  constructor(
    private readonly fetcher: (signal: AbortSignal) => Promise<T>,
    private readonly intervalMs: number,
    private readonly merge: (prev: T | undefined, next: T) => T = (_p, n) => n,
  ) {}

  getState = (): ResourceState<T> => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  };

  /** Drops what is held and asks again now (after sign-in or sign-out, or an admin write). */
  reload(clear = false): void {
    if (clear) this.set({ data: undefined, error: null, loading: true });
    if (this.listeners.size === 0) return;
    this.stop();
    this.start();
  }

  private set(next: ResourceState<T>): void {
    this.state = next;
    for (const l of this.listeners) l();
  }

  private start(): void {
    const gen = ++this.generation;
    void this.tick(gen);
  }

  private stop(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.inflight?.abort();
    this.inflight = null;
  }

  private async tick(gen: number): Promise<void> {
    const ctrl = new AbortController();
    this.inflight = ctrl;
    try {
      const next = await this.fetcher(ctrl.signal);
      if (gen !== this.generation) return;
      this.set({ data: this.merge(this.state.data, next), error: null, loading: false });
    } catch (err) {
      if (gen !== this.generation || isAbort(err)) return;
      this.set({ data: this.state.data, error: err, loading: false });
    } finally {
      if (this.inflight === ctrl) this.inflight = null;
    }
    if (gen !== this.generation) return;
    this.timer = setTimeout(() => void this.tick(gen), this.intervalMs);
  }
}
