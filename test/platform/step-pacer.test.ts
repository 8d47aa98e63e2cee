import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_PACE,
  StepPacer,
  UNPACED,
  type PaceOptions,
} from '../../src/platform/step-pacer.js';

/** A fake monotonic clock: a step "runs" for as long as the test advances it. */
function fakeTime() {
  let t = 1000;
  const waits: number[] = [];
  return {
    clock: () => t,
    advance: (ms: number) => void (t += ms),
    waits,
    wait: (ms: number) => {
      waits.push(ms);
      t += ms;
      return Promise.resolve();
    },
  };
}

const PACE: PaceOptions = { share: 1 / 4, maxGapMs: 100, targetStepMs: 20, minScale: 1 / 8 };

describe('StepPacer', () => {
  it('follows each step with a gap that keeps the steps to their share of the time', async () => {
    const time = fakeTime();
    const pacer = new StepPacer(time.clock, time.wait, PACE);
    const started = time.clock();
    for (let i = 0; i < 10; i++) await pacer.step(() => time.advance(15));
    await pacer.pause();
    // No gap before the first step; after each 15 ms step, three times as long for the batches.
    expect(time.waits).toEqual([0, ...Array<number>(10).fill(45)]);
    expect((10 * 15) / (time.clock() - started)).toBeCloseTo(1 / 4);
    expect(pacer.steps).toBe(10);
    expect(pacer.longestStepMs).toBe(15);
  });

  it('caps the gap after a long step', async () => {
    const time = fakeTime();
    const pacer = new StepPacer(time.clock, time.wait, PACE);
    await pacer.step(() => time.advance(400));
    expect(pacer.gapMs()).toBe(100);
  });

  it('halves the step size while steps run over the target and grows it back when short', async () => {
    const time = fakeTime();
    const pacer = new StepPacer(time.clock, time.wait, PACE);
    const scales: number[] = [];
    for (const ms of [50, 50, 50, 50, 10, 2, 2, 2, 2]) {
      await pacer.step(() => time.advance(ms));
      scales.push(pacer.scale);
    }
    // Never below minScale; a step between a quarter of the target and the target keeps it.
    expect(scales).toEqual([1 / 2, 1 / 4, 1 / 8, 1 / 8, 1 / 8, 1 / 4, 1 / 2, 1, 1]);
  });

  it('leaves no gap and keeps full steps when unpaced (a stop)', async () => {
    const time = fakeTime();
    const pacer = new StepPacer(time.clock, time.wait, UNPACED);
    for (let i = 0; i < 3; i++) await pacer.step(() => time.advance(500));
    expect(time.waits).toEqual([0, 0, 0]);
    expect(pacer.scale).toBe(1);
  });

  it('spreads a 4 s seal over about 12 s by default, well inside a 5-minute window', async () => {
    const time = fakeTime();
    const pacer = new StepPacer(time.clock, time.wait, BACKGROUND_PACE);
    const started = time.clock();
    for (let i = 0; i < 200; i++) await pacer.step(() => time.advance(20));
    const wall = time.clock() - started;
    expect(wall).toBeGreaterThan(11_000);
    expect(wall).toBeLessThan(13_000);
  });
});
