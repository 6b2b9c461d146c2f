-- Workspace schema version 3 as released: the hand-written DDL of store/Schema.cpp,
-- metrics/RunSummaries.cpp and timeline/TimelineOverview.cpp before it was generated from
-- store/Tables.h. Frozen: tst_tableschema checks that the generated DDL creates exactly these tables,
-- columns (name, type, NOT NULL, default, primary key) and indexes. Never edit it for a new version;
-- add schema_v4.sql.
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS strings(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, config TEXT NOT NULL, repeat INTEGER NOT NULL DEFAULT 0,
  source_format TEXT NOT NULL, source_files TEXT NOT NULL, host TEXT NOT NULL DEFAULT '',
  world_size INTEGER NOT NULL DEFAULT 1, gpu_models TEXT NOT NULL DEFAULT '[]',
  driver_version TEXT NOT NULL DEFAULT '', cuda_version TEXT NOT NULL DEFAULT '',
  cupti_version TEXT NOT NULL DEFAULT '', container_image TEXT NOT NULL DEFAULT '',
  env TEXT NOT NULL DEFAULT '{}', synthetic INTEGER NOT NULL DEFAULT 0,
  skipped_events INTEGER NOT NULL DEFAULT 0, first_skip_offset INTEGER NOT NULL DEFAULT -1,
  first_skip_reason TEXT NOT NULL DEFAULT '', tokens_per_step REAL NOT NULL DEFAULT 0,
  flops_per_step REAL NOT NULL DEFAULT 0, peak_flops REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, kernel_count INTEGER NOT NULL DEFAULT 0, event_count INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS ranks(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, local_rank INTEGER NOT NULL DEFAULT -1,
  host TEXT NOT NULL DEFAULT '', pid INTEGER NOT NULL DEFAULT 0, gpu_names TEXT NOT NULL DEFAULT '[]',
  gpu_uuids TEXT NOT NULL DEFAULT '[]', clock_offset_ns INTEGER NOT NULL DEFAULT 0,
  clock_skew_ns INTEGER NOT NULL DEFAULT 0, source_file TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(run_id, rank));
CREATE TABLE IF NOT EXISTS kernels(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER, block_y INTEGER, block_z INTEGER,
  registers INTEGER, static_smem INTEGER, dynamic_smem INTEGER,
  name_id INTEGER NOT NULL, category_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memcpys(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, bytes INTEGER NOT NULL,
  copy_kind INTEGER NOT NULL, src_kind INTEGER NOT NULL, dst_kind INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memsets(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, bytes INTEGER NOT NULL,
  value INTEGER NOT NULL, mem_kind INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS api_calls(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, kind INTEGER NOT NULL,
  name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cpu_ranges(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, depth INTEGER NOT NULL, kind INTEGER NOT NULL,
  correlation INTEGER NOT NULL, name_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, color INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS gpu_annotations(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS flows(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, correlation INTEGER NOT NULL, cpu_ns INTEGER NOT NULL,
  tid INTEGER NOT NULL, gpu_ns INTEGER NOT NULL, stream INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS counters(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  value REAL NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS steps(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, name_id INTEGER NOT NULL,
  cpu_start_ns INTEGER NOT NULL, cpu_end_ns INTEGER NOT NULL, gpu_start_ns INTEGER NOT NULL,
  gpu_end_ns INTEGER NOT NULL, PRIMARY KEY(run_id, rank, step_index));
CREATE TABLE IF NOT EXISTS run_rows(
  run_id INTEGER NOT NULL, table_name TEXT NOT NULL, first_id INTEGER NOT NULL, last_id INTEGER NOT NULL,
  PRIMARY KEY(run_id, table_name));
CREATE TABLE IF NOT EXISTS run_attributes(
  run_id INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY(run_id, key));
CREATE TABLE IF NOT EXISTS summary_rank(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL,
  kernel_count INTEGER, memcpy_count INTEGER, memset_count INTEGER, runtime_count INTEGER,
  driver_count INTEGER, cpu_range_count INTEGER, flow_count INTEGER, gpu_annotation_count INTEGER,
  kernel_time_ns INTEGER, window_start_ns INTEGER, window_end_ns INTEGER,
  compute_ns INTEGER, communication_ns INTEGER, overlap_ns INTEGER, memory_ns INTEGER, idle_ns INTEGER,
  communication_total_ns INTEGER,
  memcpy_bytes INTEGER, memcpy_time_ns INTEGER, memset_time_ns INTEGER,
  pageable_memcpy_count INTEGER, pageable_memcpy_ns INTEGER, sync_memcpy_count INTEGER, sync_memcpy_ns INTEGER,
  launched_kernel_count INTEGER, launch_delay_mean_ns REAL, launch_delay_median_ns INTEGER,
  launch_delay_p95_ns INTEGER, launch_delay_max_ns INTEGER, short_kernel_count INTEGER,
  launch_api_mean_ns REAL, device_sync_count INTEGER, device_sync_ns INTEGER,
  stream_sync_count INTEGER, stream_sync_ns INTEGER,
  graph_launch_count INTEGER, graph_kernel_count INTEGER, orphan_count INTEGER, orphan_ns INTEGER,
  launched_window_start_ns INTEGER, launched_window_end_ns INTEGER, launched_compute_ns INTEGER,
  launched_communication_ns INTEGER, launched_overlap_ns INTEGER, launched_memory_ns INTEGER,
  launched_idle_ns INTEGER, launched_communication_total_ns INTEGER, launch_bound_idle_ns INTEGER,
  PRIMARY KEY(run_id, rank));
CREATE TABLE IF NOT EXISTS summary_step(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, name_id INTEGER,
  cpu_start_ns INTEGER, cpu_end_ns INTEGER, gpu_start_ns INTEGER, gpu_end_ns INTEGER,
  compute_ns INTEGER, communication_ns INTEGER, overlap_ns INTEGER, memory_ns INTEGER, idle_ns INTEGER,
  communication_total_ns INTEGER, device_sync_count INTEGER, launch_bound_idle_ns INTEGER,
  PRIMARY KEY(run_id, rank, step_index));
CREATE TABLE IF NOT EXISTS summary_exclusive(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, category_id INTEGER NOT NULL,
  exclusive_ns INTEGER NOT NULL,
  PRIMARY KEY(run_id, rank, step_index, category_id));
CREATE TABLE IF NOT EXISTS summary_kernel(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, name_id INTEGER NOT NULL, category_id INTEGER,
  count INTEGER, total_ns INTEGER, mean_ns REAL, median_ns REAL, min_ns INTEGER, max_ns INTEGER,
  stddev_ns REAL,
  PRIMARY KEY(run_id, rank, name_id));
CREATE TABLE IF NOT EXISTS summary_gap(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER, start_ns INTEGER, end_ns INTEGER,
  cpu_state TEXT, launches INTEGER, sync_ns INTEGER, data_wait_ns INTEGER, next_name_id INTEGER,
  next_launch_ns INTEGER);
CREATE TABLE IF NOT EXISTS summary_sync(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, name_id INTEGER,
  start_ns INTEGER, end_ns INTEGER, dtoh_bytes INTEGER);
CREATE INDEX IF NOT EXISTS summary_gap_by_run ON summary_gap(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS summary_kernel_by_run ON summary_kernel(run_id, rank, total_ns);
CREATE TABLE IF NOT EXISTS timeline_overview(run_id INTEGER PRIMARY KEY, format INTEGER NOT NULL, data BLOB NOT NULL);
