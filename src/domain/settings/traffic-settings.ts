import { AppError } from '../../errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsRepo } from '../../store/ports.js';

const CHOICES = {
  guest_access_mode: ['disabled', 'by_node'],
  usage_mode: ['lite', 'billing'],
  direction_mode: ['out', 'both', 'max'],
} as const;
type Field = keyof typeof CHOICES;
const FIELDS = Object.keys(CHOICES) as Field[];
const DEFAULTS: Record<Field, string> = {
  guest_access_mode: 'disabled',
  usage_mode: 'lite',
  direction_mode: 'out',
};
/** Billing cycles are per node (spec §4.7); these global names are refused. */
const CYCLE_FIELDS = ['cycle_mode', 'billing_start_day', 'billing_anchor_date', 'billing_timezone'];
const KEY = (f: Field) => `traffic.${f}`;

export interface TrafficSettings {
  guest_access_mode: string;
  usage_mode: string;
  direction_mode: string;
}

/** Global traffic settings (reference §6.1): guest access, usage mode and direction. */
export class TrafficSettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly clock: Clock,
  ) {}

  async get(): Promise<TrafficSettings> {
    const stored = await this.repo.getMany(FIELDS.map(KEY));
    const out = { ...DEFAULTS };
    for (const f of FIELDS) {
      const raw = stored.get(KEY(f));
      if (raw !== undefined) out[f] = JSON.parse(raw) as string;
    }
    return out;
  }

  async patch(body: Record<string, unknown>): Promise<void> {
    if (CYCLE_FIELDS.some((f) => Object.prototype.hasOwnProperty.call(body, f))) {
      throw new AppError('billing_cycle_is_per_node');
    }
    const supplied = FIELDS.filter((f) => Object.prototype.hasOwnProperty.call(body, f));
    if (supplied.length === 0) throw new AppError('no_fields');
    for (const f of supplied) {
      const v = body[f];
      if (typeof v !== 'string' || !(CHOICES[f] as readonly string[]).includes(v)) {
        throw new AppError('invalid_fields', `${f} must be one of ${CHOICES[f].join(', ')}`);
      }
    }
    await this.repo.setMany(
      supplied.map((f) => [KEY(f), JSON.stringify(body[f])] as const),
      this.clock.now(),
    );
  }
}
