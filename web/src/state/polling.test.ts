import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingResource } from './polling';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A fetcher whose answers the test releases by hand. */
function controlled() {
  const pending: { resolve: (v: number) => void; reject: (e: unknown) => void }[] = [];
  const fetcher = vi.fn(
    () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject })),
  );
  return { fetcher, pending };
}

describe('PollingResource', () => {
  it('schedules the next poll only after the previous one has finished', async () => {
    const { fetcher, pending } = controlled();
    const res = new PollingResource(fetcher, 3000);
    const stop = res.subscribe(() => {});
    expect(fetcher).toHaveBeenCalledTimes(1);

    // A slow answer: no overlapping request however long it takes.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetcher).toHaveBeenCalledTimes(1);

    pending[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(res.getState()).toEqual({ data: 1, error: null, loading: false });
    stop();
  });

  it('keeps the last data when a poll fails, and recovers', async () => {
    const { fetcher, pending } = controlled();
    const res = new PollingResource(fetcher, 1000);
    const stop = res.subscribe(() => {});
    pending[0]!.resolve(5);
    await vi.advanceTimersByTimeAsync(1000);
    const boom = new Error('down');
    pending[1]!.reject(boom);
    await vi.advanceTimersByTimeAsync(0);
    expect(res.getState()).toEqual({ data: 5, error: boom, loading: false });
    await vi.advanceTimersByTimeAsync(1000);
    pending[2]!.resolve(6);
    await vi.advanceTimersByTimeAsync(0);
    expect(res.getState()).toEqual({ data: 6, error: null, loading: false });
    stop();
  });

  it('stops polling when the last subscriber leaves and aborts the request in flight', async () => {
    const signals: AbortSignal[] = [];
    const fetcher = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<number>(() => {});
    });
    const res = new PollingResource(fetcher, 1000);
    const stop = res.subscribe(() => {});
    stop();
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('merges each answer with the previous one', async () => {
    const { fetcher, pending } = controlled();
    const res = new PollingResource(fetcher, 1000, (prev, next) => (prev ?? 0) + next);
    const stop = res.subscribe(() => {});
    pending[0]!.resolve(2);
    await vi.advanceTimersByTimeAsync(1000);
    pending[1]!.resolve(3);
    await vi.advanceTimersByTimeAsync(0);
    expect(res.getState().data).toBe(5);
    stop();
  });

  it('reload(true) clears the data and asks again at once', async () => {
    const { fetcher, pending } = controlled();
    const res = new PollingResource(fetcher, 60_000);
    const stop = res.subscribe(() => {});
    pending[0]!.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    res.reload(true);
    expect(res.getState()).toEqual({ data: undefined, error: null, loading: true });
    expect(fetcher).toHaveBeenCalledTimes(2);
    stop();
  });
});
