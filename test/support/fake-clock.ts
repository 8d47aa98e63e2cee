import type { Clock } from '../../src/platform/clock.js';

/** A clock tests move by hand. */
export class FakeClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
