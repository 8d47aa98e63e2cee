/** The only source of time in Dash: every time-dependent piece receives a Clock. */
export interface Clock {
  /** Current time as UTC epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
};
