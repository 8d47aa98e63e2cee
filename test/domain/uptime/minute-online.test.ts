import { describe, expect, it } from 'vitest';
import { minuteOnline } from '../../../src/domain/uptime/minute-online.js';
import { ReceiptLog } from '../../../src/domain/uptime/receipt-log.js';

const M = 1_000_000_020_000 - (1_000_000_020_000 % 60_000);
const T = 17_000;

describe('minute online time', () => {
  it('counts a steady 3 s reporter as fully online', () => {
    const receipts = Array.from({ length: 30 }, (_, i) => M - 30_000 + i * 3000);
    expect(minuteOnline(receipts, M, 0, T)).toEqual({
      onlineMs: 60_000,
      observedMs: 60_000,
      reports: 20,
    });
  });

  it('lets each report cover at most the offline threshold', () => {
    expect(minuteOnline([M + 10_000], M, 0, T)).toEqual({
      onlineMs: 17_000,
      observedMs: 60_000,
      reports: 1,
    });
  });

  it('counts overlapping coverage once (a report ends where the next begins)', () => {
    const r = minuteOnline([M, M + 1000, M + 2000], M, 0, T);
    expect(r.onlineMs).toBe(2000 + 17_000);
  });

  it('carries a report from the previous minute into this one', () => {
    expect(minuteOnline([M - 5000], M, 0, T).onlineMs).toBe(12_000);
  });

  it('clips coverage at the minute end', () => {
    expect(minuteOnline([M + 50_000], M, 0, T).onlineMs).toBe(10_000);
  });

  it('observes a node that starts mid-minute only from its first report', () => {
    expect(minuteOnline([M + 30_000, M + 33_000], M, M + 30_000, T)).toEqual({
      onlineMs: 3000 + 17_000,
      observedMs: 30_000,
      reports: 2,
    });
  });

  it('counts a silent minute as observed and offline', () => {
    expect(minuteOnline([M - 60_000], M, 0, T)).toEqual({
      onlineMs: 0,
      observedMs: 60_000,
      reports: 0,
    });
  });
});

describe('receipt log', () => {
  it('keeps receipts sorted and without duplicates, and prunes old ones but the last before the cut', () => {
    const log = new ReceiptLog();
    for (const t of [10, 30, 20, 20, 40]) log.add(1, t);
    expect(log.receipts(1)).toEqual([10, 20, 30, 40]);
    log.prune(35);
    expect(log.receipts(1)).toEqual([30, 40]);
    log.forget(1);
    expect(log.receipts(1)).toEqual([]);
  });
});
