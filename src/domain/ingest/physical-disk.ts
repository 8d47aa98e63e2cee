import type { ReportSmartDevice } from '../../protocol/node-report.js';

/**
 * Decides whether a SMART device is a physical disk, so that only real drives get disk
 * temperature history (spec §4.2: virtual disks and RAID devices are never stored). A device is
 * virtual when its identifiers look like md/device-mapper/virtio/Xen block devices or its
 * description names a hypervisor or RAID; it is physical when its transport is NVMe or ATA, or
 * SCSI with a serial number or WWN to prove a real drive answers.
 */
const VIRTUAL_ID_PREFIXES = ['md', 'dm-', 'vd', 'xvd'];
const VIRTUAL_ID_PARTS = [
  'raid:',
  ':md',
  '/dev/md',
  '/dev/dm-',
  '/dev/mapper',
  '/dev/vd',
  '/dev/xvd',
];
const VIRTUAL_WORDS = ['raid', 'virtual', 'virtio', 'qemu', 'vmware', 'xen', 'vbox', 'hyper-v'];
const PHYSICAL_TRANSPORTS = ['nvme', 'ata', 'sat'];

const lower = (s: string | undefined) => (s ?? '').trim().toLowerCase();
const containsAny = (text: string, words: readonly string[]) => words.some((w) => text.includes(w));

function looksVirtualId(id: string): boolean {
  return VIRTUAL_ID_PREFIXES.some((p) => id.startsWith(p)) || containsAny(id, VIRTUAL_ID_PARTS);
}

export function isPhysicalSmartDevice(d: ReportSmartDevice): boolean {
  if ([d.name, d.device_path, d.ref].some((id) => looksVirtualId(lower(id)))) return false;
  const description = [d.device_type, d.protocol, d.model].map(lower).join(' ');
  if (containsAny(description, VIRTUAL_WORDS)) return false;
  const transport = `${lower(d.protocol)} ${lower(d.device_type)}`;
  if (containsAny(transport, PHYSICAL_TRANSPORTS)) return true;
  if (transport.includes('scsi')) return lower(d.serial) !== '' || lower(d.wwn) !== '';
  return false;
}

/** A usable temperature: finite and above zero (agents report 0 or less for "unknown"). */
export function validTemp(t: number | null | undefined): t is number {
  return typeof t === 'number' && Number.isFinite(t) && t > 0;
}

type TemperatureDevice = { name: string; device: ReportSmartDevice; tempC: number };

/** History and the front view both ask, once each per report: decide once. */
const decided = new WeakMap<readonly ReportSmartDevice[], readonly TemperatureDevice[]>();

/** SMART devices that feed disk.temp_c history, first occurrence of each trimmed name. */
export function temperatureDevices(
  devices: readonly ReportSmartDevice[] | null | undefined,
): readonly TemperatureDevice[] {
  if (!devices) return [];
  let out = decided.get(devices);
  if (!out) {
    out = decide(devices);
    decided.set(devices, out);
  }
  return out;
}

function decide(devices: readonly ReportSmartDevice[]): TemperatureDevice[] {
  const out: TemperatureDevice[] = [];
  const seen = new Set<string>();
  for (const d of devices) {
    const name = (d.name ?? '').trim();
    if (name === '' || seen.has(name) || !validTemp(d.temp_c) || !isPhysicalSmartDevice(d)) {
      continue;
    }
    seen.add(name);
    out.push({ name, device: d, tempC: d.temp_c });
  }
  return out;
}
