import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../../../../src/platform/logger.js';
import type { MtprotoGateway } from '../../../../src/domain/channels/mtproto.js';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';

/** A Dash whose every log line (trace level) is kept, to prove no secret reaches a log. */
export async function buildChannelsApp(
  opts: { env?: Record<string, string>; mtproto?: MtprotoGateway } = {},
): Promise<TestApp & { logLines: string[] }> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const t = await buildTestApp(opts.env ?? {}, {
    log: createLogger('trace', sink),
    ...(opts.mtproto === undefined ? {} : { mtproto: opts.mtproto }),
  });
  return Object.assign(t, { logLines });
}

export interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP server recording requests and answering with `status()`. */
export async function startReceiver(
  status: (n: number) => {
    code: number;
    body?: string;
    headers?: Record<string, string>;
  } = () => ({
    code: 200,
  }),
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = status(received.length);
      res.writeHead(answer.code, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Mail {
  from: string;
  to: string[];
  data: string;
  user: string | undefined;
}

/** An SMTP server in the test process (no TLS, PLAIN/LOGIN auth accepted for `user`/`pass`). */
export async function startSmtp(
  password: string,
): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.password === password) cb(null, { user: auth.username });
      else cb(new Error('bad credentials'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
