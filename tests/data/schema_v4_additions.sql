-- Tables added to schema version 4 after its release, each additive and optional: a v4 file without one
-- reads as having no rows in it (its readers say so), and the table is created with the other summary
-- tables the next time a run is summarised. Frozen by hand like schema_v4.sql.
-- summary_stream (issue 29.5: per-stream time, top kernel and launch queue; docs/schema.md).
CREATE TABLE IF NOT EXISTS summary_stream(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  kernel_count INTEGER, compute_ns INTEGER, communication_ns INTEGER, memory_ns INTEGER,
  top_kernel_id INTEGER, top_kernel_ns INTEGER, queue_max INTEGER, queue_mean REAL, queued_ops INTEGER,
  PRIMARY KEY(run_id, rank, device, stream));
-- collective_args (issue 30: NCCL call arguments of communication kernels, stored with the rank's events;
-- docs/schema.md).
CREATE TABLE IF NOT EXISTS collective_args(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, stream INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  op_id INTEGER NOT NULL, in_nelems INTEGER NOT NULL, out_nelems INTEGER NOT NULL, dtype_id INTEGER NOT NULL,
  dtype_bytes INTEGER NOT NULL, group_size INTEGER NOT NULL, pg_name_id INTEGER NOT NULL,
  pg_desc_id INTEGER NOT NULL, pg_ranks_id INTEGER NOT NULL,
  PRIMARY KEY(run_id, rank, stream, start_ns));
-- shard_part (issue 27.5: what a shard written alone keeps for a study assembled from shards;
-- docs/schema.md). Only in such shards.
CREATE TABLE IF NOT EXISTS shard_part(
  run_id INTEGER PRIMARY KEY, steps_pattern INTEGER NOT NULL, steps_by_name INTEGER NOT NULL,
  kernel_format INTEGER NOT NULL, kernel_groups BLOB NOT NULL, overview_format INTEGER NOT NULL,
  overview_part BLOB NOT NULL);
-- summary_gap_pack (issue 27: a rank's idle gaps in one blob, store/GapPack.h; docs/schema.md). Runs
-- summarised before it keep summary_gap rows.
CREATE TABLE IF NOT EXISTS summary_gap_pack(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, format INTEGER NOT NULL, gap_count INTEGER NOT NULL,
  pack BLOB NOT NULL,
  PRIMARY KEY(run_id, rank));
