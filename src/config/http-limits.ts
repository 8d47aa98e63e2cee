/** Per-connection timeouts and the per-address connection cap (docs/configuration.md). */
export interface ConnectionLimits {
  /** Time to receive a request's complete headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** Socket inactivity (nothing read or written) before the first and during a request. */
  idleTimeoutMs: number;
  /** How long a connection may wait idle between two requests. */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold; 0 for no cap. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  idleTimeoutMs: 60_000,
  // Above the agents' longest report interval, so their connection is not closed as they send.
  keepAliveTimeoutMs: 72_000,
  maxConnectionsPerAddress: 256,
};
