import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { ConnectionLimits } from '../config/http-limits.js';

export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../config/http-limits.js';

/**
 * How often Node checks the header and request deadlines: its default of 30 s would let a
 * slow client overstay a short deadline by that much.
 */
export function checkingIntervalMs(limits: ConnectionLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.min(1000, Math.max(25, Math.floor(shortest / 4)));
}

/** Applies the timeouts and caps connections per peer address when they are accepted. */
export function applyConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  trustedProxies: readonly string[] = [],
): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.setTimeout(limits.idleTimeoutMs);
  const cap = limits.maxConnectionsPerAddress;
  if (cap <= 0) return;
  // Every client behind a reverse proxy shares its address: the proxy enforces its own limits.
  const trusted = trustedProxies.length > 0 ? proxyAddr.compile([...trustedProxies]) : undefined;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const addr = socket.remoteAddress;
    if (addr === undefined || trusted?.(addr, 0)) return;
    const count = (open.get(addr) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(addr, count);
    socket.once('close', () => {
      const left = (open.get(addr) ?? 1) - 1;
      if (left <= 0) open.delete(addr);
      else open.set(addr, left);
    });
  });
}
