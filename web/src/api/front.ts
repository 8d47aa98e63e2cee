import { request } from './http';

import type {
  IoRates,
  MountView,
  NodeView,
  PressureStatsView,
  PressureView,
  RaidView,
  SmartDeviceView,
  SmartView,
  ThermalView,
} from '../../../src/protocol/front-view';
import type { Brand, FrontGroup } from '../../../src/protocol/api/front';

// The wire types of GET /api/front/metrics are the server's own (src/protocol/front-view.ts),
// under the names the UI uses, so the two cannot drift apart.
export type { NodeView };
export type DiskMount = MountView;
export type DiskIo = IoRates;
export type NetTotals = NodeView['network']['total'];
export type SmartDevice = SmartDeviceView;
export type Smart = SmartView;
export type Raid = RaidView;
export type RaidArray = RaidView['arrays'][number];
export type Thermal = ThermalView;
export type ThermalSensor = ThermalView['sensors'][number];
export type Pressure = PressureView;
export type PressureStats = PressureStatsView;
export type PressureResource = NonNullable<PressureView['cpu']>;

export type { Brand, FrontGroup };

export function fetchFrontMetrics(signal?: AbortSignal, timeoutMs = 3000): Promise<NodeView[]> {
  return request<NodeView[]>('/api/front/metrics', { signal, timeoutMs });
}

export function fetchBrand(signal?: AbortSignal): Promise<Brand> {
  return request<Brand>('/api/front/brand', { signal, auth: false });
}

export function fetchFrontGroups(signal?: AbortSignal): Promise<FrontGroup[]> {
  return request<FrontGroup[]>('/api/front/groups', { signal });
}
