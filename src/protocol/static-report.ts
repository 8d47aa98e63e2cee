import { Type, type Static } from 'typebox';
import { diskLogicalMembers, int16, int32, int64, nullable, num, opt, str } from './wire-types.js';

/**
 * Static, the body of POST /api/node/static (reference §2.1): stable host facts sent at agent
 * start. Types and ranges only; value rules live in domain/ingest/validate-static.ts.
 */

const StaticLogicalSchema = Type.Object({ ...diskLogicalMembers, fs_type: str() });

const StaticFilesystemSchema = Type.Object({
  path: str(),
  device: str(),
  mountpoint: str(),
  total: opt(int64()),
  fs_type: str(),
  inodes_total: opt(int64()),
});

export const StaticReportSchema = Type.Object({
  version: str(),
  timestamp: str(),
  report_interval_seconds: opt(int32()),
  cpu: opt(
    Type.Object({
      info: opt(
        Type.Object({
          model_name: str(),
          vendor_id: str(),
          sockets: opt(int16()),
          cores_physical: opt(int16()),
          cores_logical: opt(int16()),
          frequency_mhz: num(),
        }),
      ),
    }),
  ),
  memory: opt(Type.Object({ total: opt(int64()), swap_total: nullable(int64()) })),
  disk: opt(
    Type.Object({
      physical: nullable(Type.Array(Type.Object({ name: str(), device_path: str(), ref: str() }))),
      logical: nullable(Type.Array(StaticLogicalSchema)),
      filesystems: nullable(Type.Array(StaticFilesystemSchema)),
      base_io: nullable(
        Type.Array(
          Type.Object({ kind: str(), name: str(), device_path: str(), ref: str(), role: str() }),
        ),
      ),
    }),
  ),
  system: opt(
    Type.Object({
      hostname: str(),
      os: str(),
      platform: str(),
      platform_version: str(),
      kernel_version: str(),
      arch: str(),
    }),
  ),
  raid: opt(
    Type.Object({
      supported: opt(Type.Boolean()),
      available: opt(Type.Boolean()),
      arrays: nullable(
        Type.Array(
          Type.Object({
            name: str(),
            level: str(),
            devices: opt(int64()),
            members: nullable(Type.Array(Type.Object({ name: str() }))),
          }),
        ),
      ),
    }),
  ),
});

export type StaticReport = Static<typeof StaticReportSchema>;
export type StaticLogical = Static<typeof StaticLogicalSchema>;
