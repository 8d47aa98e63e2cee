import pg from 'pg';

/** NOTIFY payloads must stay under PostgreSQL's 8000-byte limit: send ids, not documents. */
export const MAX_PAYLOAD_BYTES = 7999;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export type NotifyHandler = (payload: string) => void;

/**
 * Publish/subscribe between Dash instances over PostgreSQL `LISTEN/NOTIFY`: the transport for
 * sharing hot state (which nodes' front views changed) without another service to run. A
 * notification is delivered to every listening session when the publishing transaction commits,
 * never before and never for a rolled-back one. The listening connection is dedicated (outside
 * the pool); when it drops, it is re-established after `reconnectMs` and listens again, and
 * then `onGap` tells the owner that notifications may have been missed (re-read shared state).
 * Channels are database-wide, not per schema: installs sharing a database need distinct names.
 */
export class PgBus {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<NotifyHandler>>();
  private closed = false;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Set when the listening connection dropped; cleared (and onGap called) once back. */
  private gap = false;
  /** application_name of the listening session (operators can see it in pg_stat_activity). */
  readonly sessionName = `dash-listen-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly opts: { reconnectMs?: number; onGap?: () => void } = {},
  ) {}

  /** Sends a notification (delivered when the statement's transaction commits). */
  async publish(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new Error(`notification payload over ${MAX_PAYLOAD_BYTES} bytes`);
    }
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /** Calls `fn` for every notification on `channel`; resolves once listening. */
  async subscribe(channel: string, fn: NotifyHandler): Promise<() => void> {
    checkChannel(channel);
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      await this.connect();
      await this.client?.query(`LISTEN ${channel}`);
    }
    set.add(fn);
    return () => void set.delete(fn);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => {});
  }

  private connect(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.url,
        application_name: this.sessionName,
      });
      client.on('notification', (n) => {
        for (const fn of this.handlers.get(n.channel) ?? []) fn(n.payload ?? '');
      });
      client.on('error', () => this.lost(client));
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
        for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
        this.client = client;
        if (this.gap) {
          this.gap = false;
          this.opts.onGap?.();
        }
      } catch (err) {
        await client.end().catch(() => {});
        throw err;
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => {});
    if (this.closed) return;
    this.gap = true;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().catch(() => this.scheduleReconnect());
    }, this.opts.reconnectMs ?? 1000);
    this.retry.unref();
  }
}

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel name: ${channel}`);
}
