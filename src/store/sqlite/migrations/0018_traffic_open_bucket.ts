/**
 * The open 5-minute bucket of each interface kept on its cursor row (issue 22;
 * docs/ingest-disk-writes.md, "Facts written once per bucket"). `traffic_5m` is clustered by
 * (node, interface, bucket), so adding every flush's parts to it rewrote one leaf per interface
 * per flush; the parts of the bucket still open now add up in these columns of `traffic_iface`,
 * a row every flush rewrites anyway (its last sample), and go to `traffic_5m` once, when a
 * later sample closes the bucket. NULL `open_bucket`: no part since the last close.
 *
 * A bucket's fact is the sum of its `traffic_5m` row and these columns when they name it, so
 * the rows a flush stored before this migration (the open buckets included) stay as they are.
 */
export const up = [
  'ALTER TABLE traffic_iface ADD COLUMN open_bucket INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_in INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_out INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_valid_in INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_valid_out INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_valid_ms INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_gaps INTEGER',
  'ALTER TABLE traffic_iface ADD COLUMN open_resets INTEGER',
];
