import { connect, type Socket } from 'node:net';

/**
 * A minimal HTTP/1.1 keep-alive client for load generation: one request in flight per
 * connection, pre-encoded request bytes, and just enough response parsing to find the status
 * and the end of the body. Much cheaper per request than node:http, so the load generator
 * takes little CPU from the server it measures.
 */
export class Connection {
  private socket: Socket;
  private buf: Buffer = Buffer.alloc(0);
  private pending: ((status: number) => void) | undefined;
  private failed: ((err: Error) => void) | undefined;
  busy = false;
  /** The socket is gone (closed by either side); the connection cannot send again. */
  closed = false;

  private constructor(
    socket: Socket,
    /** The port this connection was opened to. */
    readonly port: number,
  ) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => {
      this.closed = true;
      this.fail(new Error('connection closed'));
    });
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new Connection(s, port)));
      s.once('error', reject);
    });
  }

  /** Sends one request and resolves with the response status. */
  send(head: Buffer, body: Buffer): Promise<number> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    this.busy = true;
    return new Promise((resolve, reject) => {
      this.pending = resolve;
      this.failed = reject;
      this.socket.cork();
      this.socket.write(head);
      this.socket.write(body);
      this.socket.uncork();
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    const f = this.failed;
    this.pending = undefined;
    this.failed = undefined;
    this.busy = false;
    f?.(err);
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const total = end + 4 + (m ? Number(m[1]) : 0);
    if (this.buf.length < total) return;
    this.buf = this.buf.subarray(total);
    const status = Number(head.slice(9, 12));
    const done = this.pending;
    this.pending = undefined;
    this.failed = undefined;
    this.busy = false;
    done?.(status);
  }
}

export function requestHead(path: string, secret: string, length: number, gzip = false): Buffer {
  return Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      (gzip ? 'Content-Encoding: gzip\r\n' : '') +
      `X-Node-Secret: ${secret}\r\nContent-Length: ${length}\r\n\r\n`,
    'latin1',
  );
}
