/** Per-request facts set by guards for handlers to read. */
declare module 'fastify' {
  interface FastifyRequest {
    /** The node proven by X-Node-Secret (node routes only). */
    nodeId?: number;
    /** When a node request arrived (epoch ms), for the metrics persistence budget. */
    receivedAt?: number;
  }
}

export {};
