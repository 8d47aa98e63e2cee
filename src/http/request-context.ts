/** What guards attach to a request for handlers to read. */
declare module 'fastify' {
  interface FastifyRequest {
    /** Session id of an authenticated admin (admin routes; optional-auth routes when valid). */
    adminSessionId?: string;
    /** Node that proved itself with X-Node-Secret (node routes). */
    nodeId?: number;
    /** When a node request arrived (epoch ms), for the metrics persistence budget. */
    receivedAt?: number;
  }
}

export {};
