/**
 * The open 5-minute bucket of each interface kept on its cursor row (issue 22;
 * docs/ingest-disk-writes.md, "Facts written once per bucket"). `traffic_5m` is clustered by
 * (node, interface, bucket), so adding every flush's parts to it rewrote one leaf per interface
 * per flush; the parts of the bucket still open now add up in these columns of `traffic_iface`,
 * a row every flush rewrites anyway (its last sample), and go to `traffic_5m` once, when a
 * later sample closes the bucket. NULL `open_bucket`: no part since the last close.
 *
 * `traffic_5m_held` keeps an interface's closed buckets for up to an hour (a blob of facts,
 * store/sqlite/traffic-held-codec.ts) so they reach `traffic_5m` together: its leaf of the
 * interface is then written once per hour instead of once per bucket. Written once per bucket
 * close, not per flush; `first_bucket` is the blob's oldest (retention).
 *
 * A bucket's fact is the sum of its `traffic_5m` row, its entry in `traffic_5m_held` and these
 * columns when they name it, so the rows a flush stored before this migration (the open buckets
 * included) stay as they are.
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
  `CREATE TABLE traffic_5m_held (
    node_id INTEGER NOT NULL,
    iface TEXT NOT NULL,
    first_bucket INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (node_id, iface)
  ) STRICT, WITHOUT ROWID`,
];
