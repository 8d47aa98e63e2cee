/**
 * The fixed value sets of the API's payloads, with no schema code: the web imports these as
 * values (its bundle takes nothing else from the server), the schemas beside this file build
 * on them.
 */

export const CYCLE_MODES = ['calendar_month', 'whmcs_compatible', 'clamp_to_month_end'] as const;
export type CycleMode = (typeof CYCLE_MODES)[number];

/** A node's traffic direction; `default` follows the global setting. */
export const DIRECTION_MODES = ['default', 'out', 'both', 'max'] as const;
export type DirectionMode = (typeof DIRECTION_MODES)[number];

export const CHANNEL_TYPES = ['telegram', 'email', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const GUEST_MODES = ['disabled', 'by_node'] as const;
export type GuestMode = (typeof GUEST_MODES)[number];

export const UPDATE_CHANNELS = ['release', 'prerelease'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

export const SILENCE_SCOPES = ['node', 'group', 'rule'] as const;
export type SilenceScope = (typeof SILENCE_SCOPES)[number];

export const PERSISTENCE = ['session', 'persistent'] as const;
export type Persistence = (typeof PERSISTENCE)[number];

/**
 * `value` when it is one of `values`, else `fallback`: for fields stored as text and checked
 * on write (a legacy or unknown value shows as the fallback instead of breaking a form).
 */
export function oneOf<T extends string>(value: string, values: readonly T[], fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}
