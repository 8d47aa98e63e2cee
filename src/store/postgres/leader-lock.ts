import pg from 'pg';

export interface LeaderLockOptions {
  /** What is led (`alerts`): the advisory lock is `hashtext('dash.leader.<name>')`. */
  name: string;
  /** How often a follower tries to take the lock (and a lost connection is re-made). */
  retryMs?: number;
  /** Told whenever this instance becomes or stops being the leader. */
  onChange: (leading: boolean) => void | Promise<void>;
  onError: (err: unknown) => void;
}

/**
 * One leader among instances for work that needs one continuous owner rather than one run per
 * turn (alert evaluation keeps its state machine in memory): a session advisory lock held on a
 * dedicated connection for as long as the instance leads. Followers try again every `retryMs`;
 * when the leader dies its session ends, the lock with it, and a follower takes over within
 * one retry. A leader whose connection drops stops leading at once (another may take over).
 */
export class LeaderLock {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private leadingNow = false;
  private trying: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly o: LeaderLockOptions,
  ) {}

  get leading(): boolean {
    return this.leadingNow;
  }

  /** Tries once now (resolves when that try ended), then every retryMs while following. */
  start(): Promise<void> {
    this.stopped = false;
    return this.tryNow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.trying;
    const c = this.client;
    this.client = undefined;
    // Ending the session releases the lock.
    await c?.end().catch(() => {});
    await this.set(false);
  }

  private tryNow(): Promise<void> {
    this.trying ??= this.attempt().finally(() => {
      this.trying = undefined;
      this.schedule();
    });
    return this.trying;
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.leadingNow) return;
    try {
      const client = await this.connection();
      const res = await client.query<{ ok: boolean | number }>(
        'SELECT pg_try_advisory_lock(hashtext($1)) AS ok',
        [`dash.leader.${this.o.name}`],
      );
      const ok = res.rows[0]?.ok;
      if (ok === true || ok === 1) await this.set(true);
    } catch (err) {
      this.o.onError(err);
    }
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `dash-leader-${this.o.name}`,
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      void this.set(false).then(() => this.schedule());
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  private schedule(): void {
    if (this.stopped || this.leadingNow || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tryNow();
    }, this.o.retryMs ?? 2000);
    this.timer.unref();
  }

  private async set(leading: boolean): Promise<void> {
    if (this.leadingNow === leading) return;
    this.leadingNow = leading;
    try {
      await this.o.onChange(leading);
    } catch (err) {
      this.o.onError(err);
    }
  }
}
