import { join } from 'node:path';
import type { ThermalMetrics, ThermalSensor } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { listDir, readAttr, readInt } from './read.js';

/** Sensor kind from a hwmon driver name or a thermal zone type. */
export function sensorKind(name: string): string {
  const n = name.toLowerCase();
  if (/^(coretemp|k8temp|k10temp|zenpower|via_cputemp|x86_pkg_temp)/.test(n) || n.includes('cpu')) {
    return 'cpu';
  }
  if (n.startsWith('soc') || n.startsWith('cluster')) return 'cpu';
  if (/^(amdgpu|radeon|nouveau|i915|xe$)/.test(n) || n.includes('gpu')) return 'gpu';
  if (n.startsWith('pch')) return 'chipset';
  if (/^(nct|it87|it86|w83|f71|asus|dell_smm|thinkpad|applesmc)/.test(n)) return 'board';
  if (n.startsWith('acpitz')) return 'acpi';
  return 'unknown';
}

/**
 * Millidegrees to °C. Readings at or below 0 are treated as absent, as Dash does; so are values of
 * 200 °C and more, which drivers use as "no limit" placeholders (NVMe reports 65261.85 °C).
 */
function celsius(milli: number | undefined): number | undefined {
  if (milli === undefined || milli <= 0 || milli >= 200_000) return undefined;
  return milli / 1000;
}

function hwmonSensors(paths: HostPaths, seen: Set<string>): ThermalSensor[] {
  const root = join(paths.sys, 'class', 'hwmon');
  const out: ThermalSensor[] = [];
  const nameCount = new Map<string, number>();
  for (const hw of listDir(root).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    // Before 3.x many drivers kept their attributes one level down, in device/.
    let dir = join(root, hw);
    let driver = readAttr(join(dir, 'name'));
    if (!driver) {
      dir = join(dir, 'device');
      driver = readAttr(join(dir, 'name'));
    }
    if (!driver) continue;
    seen.add(driver);
    const nth = (nameCount.get(driver) ?? 0) + 1;
    nameCount.set(driver, nth);
    const keyBase = nth === 1 ? driver : `${driver}#${nth}`;
    const inputs = listDir(dir)
      .map((f) => /^temp(\d+)_input$/.exec(f)?.[1])
      .filter((i): i is string => i !== undefined)
      .sort((a, b) => Number(a) - Number(b));
    for (const i of inputs) {
      const temp = celsius(readInt(join(dir, `temp${i}_input`)));
      if (temp === undefined) continue;
      const label = readAttr(join(dir, `temp${i}_label`));
      const high = celsius(readInt(join(dir, `temp${i}_max`)));
      const crit = celsius(readInt(join(dir, `temp${i}_crit`)));
      out.push({
        kind: sensorKind(driver),
        name: label ? `${driver} ${label}` : `${driver} temp${i}`,
        sensor_key: `hwmon/${keyBase}/temp${i}`,
        source: 'hwmon',
        status: 'ok',
        temp_c: temp,
        ...(high !== undefined ? { high_c: high } : {}),
        ...(crit !== undefined ? { critical_c: crit } : {}),
      });
    }
  }
  return out;
}

function zoneSensors(paths: HostPaths, hwmonDrivers: Set<string>): ThermalSensor[] {
  const root = join(paths.sys, 'class', 'thermal');
  const out: ThermalSensor[] = [];
  const zones = listDir(root)
    .filter((z) => z.startsWith('thermal_zone'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  for (const zone of zones) {
    const dir = join(root, zone);
    const type = readAttr(join(dir, 'type'));
    // Zones that also register a hwmon device (acpitz, most SoC zones) were read there already.
    if (!type || hwmonDrivers.has(type) || hwmonDrivers.has(type.replace(/-/g, '_'))) continue;
    const temp = celsius(readInt(join(dir, 'temp')));
    if (temp === undefined) continue;
    let high: number | undefined;
    let crit: number | undefined;
    for (const f of listDir(dir)) {
      const trip = /^trip_point_(\d+)_type$/.exec(f);
      if (!trip) continue;
      const kind = readAttr(join(dir, f));
      const value = celsius(readInt(join(dir, `trip_point_${trip[1]}_temp`)));
      if (kind === 'critical') crit = value;
      else if (kind === 'hot') high = value;
    }
    out.push({
      kind: sensorKind(type),
      name: type,
      sensor_key: `thermal/${zone}`,
      source: 'thermal_zone',
      status: 'ok',
      temp_c: temp,
      ...(high !== undefined ? { high_c: high } : {}),
      ...(crit !== undefined ? { critical_c: crit } : {}),
    });
  }
  return out;
}

/** Temperatures from hwmon and thermal zones; undefined when the host exposes no sensor. */
export function readThermal(paths: HostPaths): ThermalMetrics | undefined {
  const hwmonDrivers = new Set<string>();
  const sensors = [...hwmonSensors(paths, hwmonDrivers), ...zoneSensors(paths, hwmonDrivers)];
  return sensors.length > 0 ? { status: 'ok', sensors } : undefined;
}
