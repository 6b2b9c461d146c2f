#include "store/Schema.h"

namespace cnp::schema {

std::string_view createTablesSql() {
    return R"SQL(
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
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL,
  grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER, block_y INTEGER, block_z INTEGER,
  registers INTEGER, static_smem INTEGER, dynamic_smem INTEGER,
  name_id INTEGER NOT NULL, category_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memcpys(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, bytes INTEGER NOT NULL,
  copy_kind INTEGER NOT NULL, src_kind INTEGER NOT NULL, dst_kind INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memsets(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, bytes INTEGER NOT NULL,
  value INTEGER NOT NULL, mem_kind INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS api_calls(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, correlation INTEGER NOT NULL, kind INTEGER NOT NULL,
  name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cpu_ranges(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, pid INTEGER NOT NULL, tid INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, depth INTEGER NOT NULL, kind INTEGER NOT NULL,
  correlation INTEGER NOT NULL, name_id INTEGER NOT NULL, domain_id INTEGER NOT NULL, color INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS gpu_annotations(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, stream INTEGER NOT NULL,
  start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS flows(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, correlation INTEGER NOT NULL, cpu_ns INTEGER NOT NULL,
  tid INTEGER NOT NULL, gpu_ns INTEGER NOT NULL, stream INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS counters(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, device INTEGER NOT NULL, ts_ns INTEGER NOT NULL,
  value REAL NOT NULL, name_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS steps(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, name_id INTEGER NOT NULL,
  cpu_start_ns INTEGER NOT NULL, cpu_end_ns INTEGER NOT NULL, gpu_start_ns INTEGER NOT NULL,
  gpu_end_ns INTEGER NOT NULL, PRIMARY KEY(run_id, rank, step_index));
)SQL";
}

std::string_view createIndexesSql() {
    return R"SQL(
CREATE INDEX IF NOT EXISTS kernels_by_time ON kernels(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS memcpys_by_time ON memcpys(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS memsets_by_time ON memsets(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS api_calls_by_time ON api_calls(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS cpu_ranges_by_time ON cpu_ranges(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS gpu_annotations_by_time ON gpu_annotations(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS flows_by_correlation ON flows(run_id, rank, correlation);
CREATE INDEX IF NOT EXISTS counters_by_time ON counters(run_id, rank, ts_ns);
)SQL";
}

const std::vector<std::string_view>& eventIndexNames() {
    static const std::vector<std::string_view> names = {
        "kernels_by_time",    "memcpys_by_time",         "memsets_by_time",      "api_calls_by_time",
        "cpu_ranges_by_time", "gpu_annotations_by_time", "flows_by_correlation", "counters_by_time"};
    return names;
}

const std::vector<std::string_view>& perRunTables() {
    static const std::vector<std::string_view> tables = {
        "kernels",         "memcpys", "memsets",  "api_calls", "cpu_ranges",
        "gpu_annotations", "flows",   "counters", "steps",     "ranks"};
    return tables;
}

} // namespace cnp::schema
