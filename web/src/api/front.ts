import { request } from './http';

/** Front node object of GET /api/front/metrics (reference §4.1). */
export interface NodeView {
  node: {
    id: string;
    order?: number;
    title: string;
    search_text?: string[];
    tags?: string[];
  };
  observation: {
    received_at?: string;
    observed_at: string;
    sent_at?: string;
    stale_after_sec: number;
  };
  system: {
    os_family: string;
    platform: string;
    platform_version: string;
    kernel_version: string;
    arch?: string;
    uptime_text: string;
  };
  cpu: {
    usage_ratio: number;
    load: { l1: number; l5: number; l15: number };
    model_name?: string;
    cores_physical?: number;
    cores_logical?: number;
    sockets: number;
  };
  memory: {
    total_bytes: number;
    used_bytes: number;
    available_bytes: number;
    buffers_bytes: number;
    cached_bytes: number;
    used_ratio: number;
    swap_total_bytes: number;
    swap_used_bytes: number;
  };
  disk: {
    mounts: DiskMount[];
    io: { total: DiskIo; by_device?: Record<string, DiskIo> };
    temperature_devices?: string[];
    smart?: Smart;
  };
  network: {
    total: NetTotals;
    by_interface?: (NetTotals & { name: string })[];
  };
  processes: { count: number };
  connections: { tcp: number; udp: number };
  raid?: Raid;
  thermal?: Thermal;
  pressure?: Pressure;
}

export interface DiskMount {
  mountpoint: string;
  fs_type: string;
  total_bytes: number;
  used_bytes: number;
  used_ratio: number;
}

export interface DiskIo {
  read_bps: number;
  write_bps: number;
  read_iops: number;
  write_iops: number;
  iops: number;
}

export interface NetTotals {
  bytes_recv: number;
  bytes_sent: number;
  recv_bps: number;
  sent_bps: number;
}

export interface SmartDevice {
  name: string;
  source: string;
  status: string;
  ref?: string;
  device_path?: string;
  device_type?: string;
  protocol?: string;
  model?: string;
  serial?: string;
  wwn?: string;
  exit_status?: number;
  health?: string;
  temp_c?: number;
  power_on_hours?: number;
  lifetime_used_percent?: number;
  critical_warning?: number;
  media_errors?: number;
  failing_attrs?: { id?: number; name: string; when_failed: string }[];
}

export interface Smart {
  status: string;
  updated_at?: string;
  ttl_seconds?: number;
  devices: SmartDevice[];
}

export interface RaidArray {
  name: string;
  status: string;
  active: number;
  working: number;
  failed: number;
  health: string;
  members: { name: string; state: string }[];
  sync_status?: string;
  sync_progress?: string;
}

export interface Raid {
  supported: boolean;
  available: boolean;
  arrays: RaidArray[];
}

export interface ThermalSensor {
  kind: string;
  name: string;
  sensor_key: string;
  source: string;
  status: string;
  temp_c: number;
  high_c?: number;
  critical_c?: number;
}

export interface Thermal {
  status: string;
  updated_at?: string;
  sensors: ThermalSensor[];
}

export interface PressureStats {
  avg10: number;
  avg60: number;
  avg300: number;
  total: number;
}

export type PressureResource = { some?: PressureStats; full?: PressureStats };

export interface Pressure {
  cpu?: PressureResource;
  memory?: PressureResource;
  io?: PressureResource;
}

export interface Brand {
  logo_url: string;
  page_title: string;
  topbar_text: string;
}

export interface FrontGroup {
  id: number;
  name: string;
  node_ids: number[];
}

export function fetchFrontMetrics(signal?: AbortSignal, timeoutMs = 3000): Promise<NodeView[]> {
  return request<NodeView[]>('/api/front/metrics', { signal, timeoutMs });
}

export function fetchBrand(signal?: AbortSignal): Promise<Brand> {
  return request<Brand>('/api/front/brand', { signal, auth: false });
}

export function fetchFrontGroups(signal?: AbortSignal): Promise<FrontGroup[]> {
  return request<FrontGroup[]>('/api/front/groups', { signal });
}
