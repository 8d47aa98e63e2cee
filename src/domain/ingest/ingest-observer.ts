/**
 * Watches metrics reports go through ingest (Dash's own metrics). Both calls must stay O(1):
 * they run on the hot path once per report.
 */
export interface IngestObserver {
  reportStarted(): void;
  /** `result` is `ok` or the error code answered; `seconds` from receipt to answer. */
  reportSettled(result: string, seconds: number): void;
}
