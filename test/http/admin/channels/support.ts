import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../../../src/config/load.js';
import { createDeps } from '../../../../src/deps.js';
import { buildApp } from '../../../../src/app.js';
import { createLogger } from '../../../../src/platform/logger.js';
import type { MtprotoGateway } from '../../../../src/domain/channels/mtproto.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { tempHome, type TestApp } from '../../../support/build-app.js';
import { TEST_ADMIN_PASSWORD } from '../../../support/credentials.js';

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
  const config = loadConfig({
    DASH_HOME: tempHome(),
    DASH_DATABASE_URL: 'sqlite::memory:',
    DASH_TIMEZONE: 'UTC',
    DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ...opts.env,
  });
  const clock = new FakeClock();
  const deps = await createDeps(config, {
    clock,
    log: createLogger('trace', sink),
    ...(opts.mtproto === undefined ? {} : { mtproto: opts.mtproto }),
  });
  await deps.adminPassword.ensure(config.adminPassword);
  const app = buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    clock,
    config,
    logLines,
    async close() {
      await app.close();
      await deps.shutdown();
    },
  };
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
