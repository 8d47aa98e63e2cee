/**
 * The acceptance rules Dash applies to node payloads (reference §1.2–§1.3 for NodeReport, §2.1
 * for Static), written independently of the agent so a test fails when the agent drifts from
 * them. Payloads are checked after a JSON round trip, so NaN or Infinity show up as null.
 */

import { Checker, INT16_MAX, INT32_MAX, type Obj } from './checker.js';

function checkMountpoints(c: Checker, v: unknown, path: string): void {
  if (v === undefined) return;
  const map = c.obj(v, path);
  if (!map) return;
  for (const [mp, raw] of Object.entries(map)) {
    const p = `${path}[${JSON.stringify(mp)}]`;
    const info = c.obj(raw, p);
    if (!info) continue;
    c.optText(info.fs_type, `${p}.fs_type`, 32);
    c.optInt(info.inodes_total, `${p}.inodes_total`);
    c.optInt(info.inodes_used, `${p}.inodes_used`);
    c.optInt(info.inodes_free, `${p}.inodes_free`);
    c.optRatio(info.inodes_used_ratio, `${p}.inodes_used_ratio`);
  }
}

function checkDisk(c: Checker, disk: Obj): void {
  const physical = c.arr(disk.physical, 'disk.physical');
  c.unique(physical, 'disk.physical');
  physical.forEach((raw, i) => {
    const p = `disk.physical[${i}]`;
    const d = c.obj(raw, p);
    if (!d) return;
    c.text(d.name, `${p}.name`, 255);
    c.optText(d.ref, `${p}.ref`, 320);
    c.int(d.read_bytes, `${p}.read_bytes`);
    c.int(d.write_bytes, `${p}.write_bytes`);
    for (const f of [
      'read_rate_bytes_per_sec',
      'write_rate_bytes_per_sec',
      'iops',
      'read_iops',
      'write_iops',
      'queue_length',
      'wait_ms',
      'service_ms',
    ]) {
      c.num(d[f], `${p}.${f}`);
    }
    c.ratio(d.util_ratio, `${p}.util_ratio`);
  });

  const logical = c.arr(disk.logical, 'disk.logical');
  c.unique(logical, 'disk.logical');
  logical.forEach((raw, i) => {
    const p = `disk.logical[${i}]`;
    const d = c.obj(raw, p);
    if (!d) return;
    c.text(d.kind, `${p}.kind`, 16);
    c.text(d.name, `${p}.name`, 255);
    c.optText(d.ref, `${p}.ref`, 320);
    c.int(d.used, `${p}.used`);
    c.int(d.free, `${p}.free`);
    c.optInt(d.total, `${p}.total`);
    c.ratio(d.used_ratio, `${p}.used_ratio`);
    c.optText(d.health, `${p}.health`, 32);
    c.optText(d.level, `${p}.level`, 32);
    c.optText(d.mountpoint, `${p}.mountpoint`);
    checkMountpoints(c, d.mountpoints, `${p}.mountpoints`);
    if (d.devices !== undefined) c.arr(d.devices, `${p}.devices`);
  });

  c.arr(disk.filesystems, 'disk.filesystems').forEach((raw, i) => {
    const p = `disk.filesystems[${i}]`;
    const d = c.obj(raw, p);
    if (!d) return;
    c.text(d.path, `${p}.path`);
    for (const f of ['used', 'free', 'inodes_used', 'inodes_free']) c.int(d[f], `${p}.${f}`);
    c.ratio(d.used_ratio, `${p}.used_ratio`);
    c.ratio(d.inodes_used_ratio, `${p}.inodes_used_ratio`);
    c.optInt(d.total, `${p}.total`);
    c.optInt(d.inodes_total, `${p}.inodes_total`);
    c.optText(d.fs_type, `${p}.fs_type`, 32);
  });

  const baseIo = c.arr(disk.base_io, 'disk.base_io');
  c.unique(baseIo, 'disk.base_io');
  baseIo.forEach((raw, i) => {
    const p = `disk.base_io[${i}]`;
    const d = c.obj(raw, p);
    if (!d) return;
    c.text(d.kind, `${p}.kind`, 16);
    c.text(d.name, `${p}.name`, 255);
    c.optText(d.ref, `${p}.ref`, 320);
    c.optText(d.role, `${p}.role`, 16);
    for (const f of [
      'read_rate_bytes_per_sec',
      'write_rate_bytes_per_sec',
      'read_iops',
      'write_iops',
      'iops',
    ]) {
      c.num(d[f], `${p}.${f}`);
    }
    c.optInt(d.read_bytes, `${p}.read_bytes`);
    c.optInt(d.write_bytes, `${p}.write_bytes`);
    c.optRatio(d.util_ratio, `${p}.util_ratio`);
    for (const f of ['queue_length', 'wait_ms', 'service_ms']) c.optNum(d[f], `${p}.${f}`);
  });
}

function checkRaid(c: Checker, raid: Obj, path: string): void {
  c.bool(raid.supported, `${path}.supported`);
  c.bool(raid.available, `${path}.available`);
  c.arr(raid.arrays, `${path}.arrays`).forEach((raw, i) => {
    const p = `${path}.arrays[${i}]`;
    const a = c.obj(raw, p);
    if (!a) return;
    c.text(a.name, `${p}.name`);
    c.text(a.status, `${p}.status`);
    c.text(a.health, `${p}.health`, 16);
    for (const f of ['active', 'working', 'failed']) c.int(a[f], `${p}.${f}`, INT32_MAX);
    c.arr(a.members, `${p}.members`).forEach((m, j) => {
      const mo = c.obj(m, `${p}.members[${j}]`);
      if (!mo) return;
      c.text(mo.name, `${p}.members[${j}].name`);
      c.text(mo.state, `${p}.members[${j}].state`);
    });
    c.optText(a.sync_status, `${p}.sync_status`);
    c.optText(a.sync_progress, `${p}.sync_progress`);
  });
}

function checkThermal(c: Checker, v: unknown): void {
  if (v === undefined) return;
  const t = c.obj(v, 'thermal');
  if (!t) return;
  c.text(t.status, 'thermal.status');
  c.arr(t.sensors, 'thermal.sensors').forEach((raw, i) => {
    const p = `thermal.sensors[${i}]`;
    const s = c.obj(raw, p);
    if (!s) return;
    for (const f of ['kind', 'name', 'sensor_key', 'source', 'status']) c.text(s[f], `${p}.${f}`);
    for (const f of ['temp_c', 'high_c', 'critical_c']) {
      // Dash treats values <= 0 as absent; the agent must omit them instead of sending them.
      if (s[f] !== undefined && !(typeof s[f] === 'number' && s[f] > 0)) {
        c.fail(`${p}.${f}`, 'must be a positive temperature or absent');
      }
    }
  });
}

function checkPressure(c: Checker, v: unknown): void {
  if (v === undefined) return;
  const pr = c.obj(v, 'pressure');
  if (!pr) return;
  for (const res of ['cpu', 'memory', 'io']) {
    if (pr[res] === undefined) continue;
    const r = c.obj(pr[res], `pressure.${res}`);
    if (!r) continue;
    for (const kind of ['some', 'full']) {
      if (r[kind] === undefined) continue;
      const p = `pressure.${res}.${kind}`;
      const s = c.obj(r[kind], p);
      if (!s) continue;
      for (const f of ['avg10', 'avg60', 'avg300']) {
        const x = s[f];
        if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 100) {
          c.fail(`${p}.${f}`, 'must be a percentage in 0..100');
        }
      }
      c.int(s.total, `${p}.total`);
    }
  }
}

/** Every rule violated by a NodeReport (empty when Dash would accept it). */
export function nodeReportViolations(report: unknown): string[] {
  const c = new Checker();
  const r = c.obj(JSON.parse(JSON.stringify(report)), 'report');
  if (!r) return c.errors;
  c.version(r.version, 'version');
  c.text(r.hostname, 'hostname', 255);
  c.timestamp(r.timestamp, 'timestamp');
  const m = c.obj(r.metrics, 'metrics');
  if (!m) return c.errors;

  const cpu = c.obj(m.cpu, 'cpu');
  if (cpu) {
    c.ratio(cpu.usage_ratio, 'cpu.usage_ratio');
    for (const f of ['load1', 'load5', 'load15']) c.num(cpu[f], `cpu.${f}`);
    const times = c.obj(cpu.times, 'cpu.times');
    if (times) {
      for (const f of ['user', 'system', 'idle', 'iowait', 'steal'])
        c.num(times[f], `cpu.times.${f}`);
    }
  }
  const mem = c.obj(m.memory, 'memory');
  if (mem) {
    for (const f of ['used', 'available', 'buffers', 'cached', 'swap_used', 'swap_free']) {
      c.int(mem[f], `memory.${f}`);
    }
    c.ratio(mem.used_ratio, 'memory.used_ratio');
    c.ratio(mem.swap_used_ratio, 'memory.swap_used_ratio');
    c.optInt(mem.total, 'memory.total');
    c.optInt(mem.swap_total, 'memory.swap_total');
  }
  const disk = c.obj(m.disk, 'disk');
  if (disk) checkDisk(c, disk);

  const network = c.arr(m.network, 'network');
  c.unique(network, 'network');
  network.forEach((raw, i) => {
    const p = `network[${i}]`;
    const n = c.obj(raw, p);
    if (!n) return;
    c.text(n.name, `${p}.name`, 64);
    for (const f of [
      'bytes_recv',
      'bytes_sent',
      'packets_recv',
      'packets_sent',
      'err_in',
      'err_out',
      'drop_in',
      'drop_out',
    ]) {
      c.int(n[f], `${p}.${f}`);
    }
    for (const f of [
      'recv_rate_bytes_per_sec',
      'sent_rate_bytes_per_sec',
      'recv_rate_packets_per_sec',
      'sent_rate_packets_per_sec',
    ]) {
      c.num(n[f], `${p}.${f}`);
    }
  });

  const sys = c.obj(m.system, 'system');
  if (sys) {
    c.bool(sys.alive, 'system.alive');
    c.int(sys.uptime_seconds, 'system.uptime_seconds');
    c.text(sys.uptime, 'system.uptime');
  }
  const procs = c.obj(m.processes, 'processes');
  if (procs) c.int(procs.process_count, 'processes.process_count', INT32_MAX);
  const conns = c.obj(m.connections, 'connections');
  if (conns) {
    c.int(conns.tcp_count, 'connections.tcp_count', INT32_MAX);
    c.int(conns.udp_count, 'connections.udp_count', INT32_MAX);
  }
  const raid = c.obj(m.raid, 'raid');
  if (raid) checkRaid(c, raid, 'raid');
  checkThermal(c, m.thermal);
  checkPressure(c, m.pressure);
  return c.errors;
}

/** Every rule violated by a Static payload (empty when Dash would accept it). */
export function staticViolations(payload: unknown): string[] {
  const c = new Checker();
  const s = c.obj(JSON.parse(JSON.stringify(payload)), 'static');
  if (!s) return c.errors;
  c.version(s.version, 'version');
  c.timestamp(s.timestamp, 'timestamp');
  const interval = s.report_interval_seconds;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval <= 0) {
    c.fail('report_interval_seconds', 'must be a positive integer');
  } else c.int(interval, 'report_interval_seconds', INT32_MAX);

  const info = c.obj(c.obj(s.cpu, 'cpu')?.info, 'cpu.info');
  if (info) {
    c.optText(info.model_name, 'cpu.info.model_name');
    c.optText(info.vendor_id, 'cpu.info.vendor_id');
    for (const f of ['sockets', 'cores_physical', 'cores_logical']) {
      c.optInt(info[f], `cpu.info.${f}`, INT16_MAX);
      if (info[f] === 0) c.fail(`cpu.info.${f}`, 'unknown must be omitted, not 0');
    }
    if (info.frequency_mhz !== undefined && !((info.frequency_mhz as number) > 0)) {
      c.fail('cpu.info.frequency_mhz', 'must be positive or absent');
    }
  }
  const mem = c.obj(s.memory, 'memory');
  if (mem) {
    c.optInt(mem.total, 'memory.total');
    c.optInt(mem.swap_total, 'memory.swap_total');
  }
  const sys = c.obj(s.system, 'system');
  if (sys) {
    c.text(sys.hostname, 'system.hostname', 255);
    c.text(sys.os, 'system.os', 32);
    c.text(sys.platform, 'system.platform', 32);
    c.text(sys.platform_version, 'system.platform_version', 255);
    c.text(sys.kernel_version, 'system.kernel_version', 255);
    c.text(sys.arch, 'system.arch', 32);
  }
  const disk = s.disk === undefined ? undefined : c.obj(s.disk, 'disk');
  if (disk) {
    for (const list of ['physical', 'logical', 'filesystems', 'base_io']) {
      if (disk[list] !== undefined) c.arr(disk[list], `disk.${list}`);
    }
    ((disk.physical as unknown[] | undefined) ?? []).forEach((raw, i) => {
      c.text((raw as Obj).name, `disk.physical[${i}].name`);
    });
    ((disk.logical as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const p = `disk.logical[${i}]`;
      const d = raw as Obj;
      c.text(d.kind, `${p}.kind`, 16);
      c.text(d.name, `${p}.name`);
      for (const f of ['total', 'used', 'free']) c.optInt(d[f], `${p}.${f}`);
      c.optText(d.level, `${p}.level`, 32);
      checkMountpoints(c, d.mountpoints, `${p}.mountpoints`);
    });
    ((disk.filesystems as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const p = `disk.filesystems[${i}]`;
      const d = raw as Obj;
      c.text(d.path, `${p}.path`);
      c.int(d.total, `${p}.total`);
      c.int(d.inodes_total, `${p}.inodes_total`);
      c.optText(d.fs_type, `${p}.fs_type`, 32);
    });
    ((disk.base_io as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const d = raw as Obj;
      c.text(d.kind, `disk.base_io[${i}].kind`);
      c.text(d.name, `disk.base_io[${i}].name`);
    });
  }
  const raid = c.obj(s.raid, 'raid');
  if (raid) {
    c.bool(raid.supported, 'raid.supported');
    c.bool(raid.available, 'raid.available');
    if (raid.arrays !== undefined) {
      c.arr(raid.arrays, 'raid.arrays').forEach((raw, i) => {
        const a = raw as Obj;
        c.text(a.name, `raid.arrays[${i}].name`);
        c.text(a.level, `raid.arrays[${i}].level`);
        c.int(a.devices, `raid.arrays[${i}].devices`, INT32_MAX);
      });
    }
  }
  return c.errors;
}
