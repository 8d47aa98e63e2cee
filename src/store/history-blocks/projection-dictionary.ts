/**
 * Preset dictionaries for projection records of the open-block log (open-log-record.ts): raw
 * deflate starts each record with this text as its history, so the keys and shapes every
 * projection repeats (~4 KB of JSON, mostly keys) cost back-references from the first byte on
 * instead of literals. Measured on the ingest bench's projections: 1,654 B a record with level 1
 * and no dictionary, 924 B with this one at level 6, at about the same CPU
 * (docs/ingest-disk-writes.md).
 *
 * The text holds the key structure of a projection (runtime, SMART, thermal, pressure JSON, two
 * items of each array), numbers as 0, strings emptied except common enumerations: no value of
 * one machine. A record names the dictionary it was written with, so a dictionary must never
 * change once released: a better one is added under the next id, and the old ones stay for the
 * logs older builds left (open-log-dictionary.test.ts pins their checksums).
 */

const V1 = [
  // runtime
  '{"receivedAt":0,"observedAt":0,"sentAt":"","uptimeText":"","cpu":{"usage":0,"l1":0,"l5":0,',
  '"l15":0},"memory":{"total":0,"used":0,"available":0,"buffers":0,"cached":0,"usedRatio":0,"',
  'swapTotal":0,"swapUsed":0},"mounts":[{"label":"","fsType":"ext4","total":0,"used":0,"ratio',
  '":0},{"label":"","fsType":null,"total":0,"used":0,"ratio":0}],"io":{"total":{"read_bps":0,',
  '"write_bps":0,"read_iops":0,"write_iops":0,"iops":0},"by_device":{"nvme:":{"read_bps":0,"w',
  'rite_bps":0,"read_iops":0,"write_iops":0,"iops":0},"raid:":{"read_bps":0,"write_bps":0,"re',
  'ad_iops":0,"write_iops":0,"iops":0},"lvm:":{"read_bps":0,"write_bps":0,"read_iops":0,"writ',
  'e_iops":0,"iops":0}}},"network":{"total":{"bytes_recv":0,"bytes_sent":0,"recv_bps":0,"sent',
  '_bps":0},"by_interface":[{"name":"","bytes_recv":0,"bytes_sent":0,"recv_bps":0,"sent_bps":',
  '0},{"name":"","bytes_recv":0,"bytes_sent":0,"recv_bps":0,"sent_bps":0}]},"processes":0,"tc',
  'p":0,"udp":0,"temperatureDevices":["",""],"raid":{"supported":true,"available":true,"array',
  's":[{"name":"","status":"active","active":0,"working":0,"failed":0,"health":"healthy","mem',
  'bers":[{"name":"","state":"up"},{"name":"","state":"up"}],"sync_status":"idle"}]}}',
  // smart
  '{"status":"ok","devices":[{"name":"","source":"smartctl","status":"ok","ref":"","device_pa',
  'th":"","device_type":"nvme","protocol":"NVMe","model":"","serial":"","exit_status":0,"powe',
  'r_on_hours":0,"lifetime_used_percent":0,"critical_warning":0,"health":"PASSED","temp_c":0}',
  ',{"name":"","source":"smartctl","status":"ok","ref":"","device_path":"","device_type":"sat',
  '","protocol":"ATA","model":"","serial":"","wwn":"","exit_status":0,"power_on_hours":0,"hea',
  'lth":"PASSED","temp_c":0}],"updated_at":"","ttl_seconds":0}',
  // thermal
  '{"status":"ok","sensors":[{"kind":"cpu","name":"","sensor_key":"","source":"hwmon","status',
  '":"ok","temp_c":0,"high_c":0,"critical_c":0},{"kind":"cpu","name":"","sensor_key":"","sour',
  'ce":"hwmon","status":"ok","temp_c":0,"high_c":0,"critical_c":0}],"updated_at":""}',
  // pressure
  '{"cpu":{"some":{"avg10":0,"avg60":0,"avg300":0,"total":0},"full":{"avg10":0,"avg60":0,"avg',
  '300":0,"total":0}},"memory":{"some":{"avg10":0,"avg60":0,"avg300":0,"total":0},"full":{"av',
  'g10":0,"avg60":0,"avg300":0,"total":0}},"io":{"some":{"avg10":0,"avg60":0,"avg300":0,"tota',
  'l":0},"full":{"avg10":0,"avg60":0,"avg300":0,"total":0}}}',
].join('');

const DICTIONARIES = new Map<number, Buffer>([[1, Buffer.from(V1)]]);

/** The dictionary new projection records are written with. */
export const PROJECTION_DICTIONARY = 1;

export function projectionDictionary(id: number): Buffer {
  const d = DICTIONARIES.get(id);
  if (!d) throw new Error(`unknown open-log projection dictionary ${id}`);
  return d;
}
