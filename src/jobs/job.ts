/** A clock-driven background job: runOnce is idempotent and safe to repeat. */
export interface Job {
  name: string;
  intervalMs: number;
  runOnce(now: number): Promise<unknown>;
}
