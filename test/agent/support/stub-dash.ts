import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface Received {
  method: string;
  path: string;
  secret: string | undefined;
  contentType: string | undefined;
  /** Content-Encoding of the request body; `body` is what it decodes to. */
  contentEncoding: string | undefined;
  body: string;
  json: unknown;
}

export type Responder = (req: Received, res: ServerResponse) => void;

/** The answers a real Dash gives when everything is accepted. */
export const acceptAll: Responder = (req, res) => {
  if (req.path.endsWith('/static')) {
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  } else if (req.path.endsWith('/identity')) {
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ install_id: `server_${'ab'.repeat(16)}`, created: false }));
  } else {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true,"update":null}');
  }
};

/** A loopback HTTP server standing in for Dash: records requests, answers via a swappable responder. */
export class StubDash {
  readonly received: Received[] = [];
  responder: Responder = acceptAll;
  /** Answer every request with `Accept-Encoding: gzip`, as Dash's node routes do. */
  advertiseGzip = false;
  private server: Server | undefined;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = req.headers['content-encoding'];
        const body = (encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        let json: unknown;
        try {
          json = body ? JSON.parse(body) : undefined;
        } catch {
          json = undefined;
        }
        const entry: Received = {
          method: req.method ?? '',
          path: req.url ?? '',
          secret: req.headers['x-node-secret'] as string | undefined,
          contentType: req.headers['content-type'],
          contentEncoding: encoding,
          body,
          json,
        };
        this.received.push(entry);
        if (this.advertiseGzip) res.setHeader('Accept-Encoding', 'gzip');
        this.responder(entry, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/api/node/metrics', scheme = 'http'): string {
    return `${scheme}://127.0.0.1:${this.port}${path}`;
  }

  paths(): string[] {
    return this.received.map((r) => r.path);
  }

  count(suffix: string): number {
    return this.received.filter((r) => r.path.endsWith(suffix)).length;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}
