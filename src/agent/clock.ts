/**
 * The agent's only source of time. Wall time stamps the payloads; monotonic time measures the
 * elapsed seconds behind every rate, so a wall-clock step (NTP, manual change) never distorts one.
 */
export interface AgentClock {
  /** UTC epoch milliseconds. */
  now(): number;
  /** Milliseconds from an arbitrary origin that never goes backwards. */
  monotonic(): number;
}

export const systemAgentClock: AgentClock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};
