import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ReleaseChannel } from './manifest.js';

export const PHASES = [
  'queued',
  'locked',
  'download',
  'validate',
  'prepared',
  'switching',
  'starting',
  'cleanup',
  'done',
] as const;
export type Phase = (typeof PHASES)[number];

export const FAILURE_CODES = [
  'install_changed',
  'recovery_required',
  'rolled_back',
  'update_running',
  'update_interrupted',
  'update_failed',
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** A job as persisted (and as the status endpoint shows it, minus availability). */
export interface JobRecord {
  id: string;
  status: 'running' | 'completed' | 'failed';
  action: 'update' | 'reinstall';
  channel: ReleaseChannel;
  origin: 'admin' | 'auto';
  target_version?: string;
  from_version?: string;
  phase: Phase;
  failure_code?: FailureCode;
  recovery_path?: string;
  started_at: string;
  finished_at?: string;
  exit_code?: number;
}

/** Written before `current` moves and removed after: its presence at start means a crash. */
export interface Transaction {
  job_id: string;
  previous: string;
  next: string;
}

const LOG_TAIL = 16 * 1024;

export function rfc3339Seconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Job id: UTC start time plus a random suffix, sortable by start. */
export function newJobId(now: number): string {
  const stamp = rfc3339Seconds(now).replace(/[-:]/g, '');
  return `${stamp}-${randomBytes(5).toString('hex')}`;
}

/** Files under $DASH_HOME/runtime/dash-update; every write goes through a rename. */
export class JobStore {
  constructor(readonly dir: string) {}

  private jobDir(id: string): string {
    if (!/^[0-9TZ]+-[0-9a-f]+$/.test(id)) throw new Error('bad job id');
    return join(this.dir, 'jobs', id);
  }

  private writeAtomic(file: string, text: string): void {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  }

  save(job: JobRecord): void {
    mkdirSync(this.jobDir(job.id), { recursive: true });
    this.writeAtomic(join(this.jobDir(job.id), 'status.json'), JSON.stringify(job, null, 2));
    this.writeAtomic(join(this.dir, 'last-job'), job.id);
  }

  lastJob(): JobRecord | undefined {
    try {
      const id = readFileSync(join(this.dir, 'last-job'), 'utf8').trim();
      return JSON.parse(readFileSync(join(this.jobDir(id), 'status.json'), 'utf8')) as JobRecord;
    } catch {
      return undefined;
    }
  }

  log(id: string, line: string): void {
    mkdirSync(this.jobDir(id), { recursive: true });
    appendFileSync(join(this.jobDir(id), 'update.log'), line.endsWith('\n') ? line : `${line}\n`);
  }

  logTail(id: string): string | undefined {
    try {
      const text = readFileSync(join(this.jobDir(id), 'update.log'), 'utf8');
      return text.length > LOG_TAIL ? text.slice(text.length - LOG_TAIL) : text;
    } catch {
      return undefined;
    }
  }

  get transactionFile(): string {
    return join(this.dir, 'transaction.json');
  }

  writeTransaction(tx: Transaction): void {
    mkdirSync(this.dir, { recursive: true });
    this.writeAtomic(this.transactionFile, JSON.stringify(tx));
  }

  transaction(): Transaction | undefined {
    try {
      return JSON.parse(readFileSync(this.transactionFile, 'utf8')) as Transaction;
    } catch {
      return undefined;
    }
  }

  clearTransaction(): void {
    rmSync(this.transactionFile, { force: true });
  }

  /** Exclusive lock file; false when another update holds it. */
  tryLock(owner: string): boolean {
    mkdirSync(this.dir, { recursive: true });
    try {
      writeFileSync(join(this.dir, 'update.lock'), owner, { flag: 'wx' });
      return true;
    } catch {
      return false;
    }
  }

  unlock(): void {
    rmSync(join(this.dir, 'update.lock'), { force: true });
  }
}
