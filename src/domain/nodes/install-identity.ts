import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error.js';

const INSTALL_ID = /^server_[0-9a-f]{32}$/;

export interface InstallIdentityResult {
  installId: string;
  /** True only for the call that created the id. */
  created: boolean;
}

/**
 * The Dash installation id agents record per target (reference §3): `server_` + 32 hex digits
 * in `$DASH_HOME/install_id`, created once. Creation writes a private temporary file and links
 * it into place, which fails if the file already exists, so concurrent first calls (in this
 * process or another) agree on one winner and never see a half-written file. A corrupt file is
 * never replaced automatically: it answers 503 until an operator fixes it.
 */
export class InstallIdentity {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly home: string) {}

  get path(): string {
    return join(this.home, 'install_id');
  }

  get(): Promise<InstallIdentityResult> {
    const next = this.chain.then(() => this.readOrCreate());
    this.chain = next.catch(() => {});
    return next;
  }

  private async read(): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new AppError('service_unavailable', 'install id cannot be read', { cause: err });
    }
    const id = text.trim();
    if (!INSTALL_ID.test(id)) {
      throw new AppError('service_unavailable', `${this.path} is corrupt; fix or remove it`);
    }
    return id;
  }

  private async readOrCreate(): Promise<InstallIdentityResult> {
    const existing = await this.read();
    if (existing) return { installId: existing, created: false };
    const id = `server_${randomBytes(16).toString('hex')}`;
    const tmp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${id}\n`, { mode: 0o600, flag: 'wx', flush: true });
      await link(tmp, this.path);
      return { installId: id, created: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new AppError('service_unavailable', 'install id cannot be created', { cause: err });
      }
      const winner = await this.read();
      if (!winner) throw new AppError('service_unavailable', 'install id vanished while created');
      return { installId: winner, created: false };
    } finally {
      await unlink(tmp).catch(() => {});
    }
  }
}
