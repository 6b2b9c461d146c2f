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
)SQL";
}

const std::vector<EventTable>& eventTables() {
    static const std::vector<EventTable> tables = {
        {"kernels", "start_ns",
         "run_id, rank, device, stream, start_ns, end_ns, correlation, grid_x, grid_y, grid_z, block_x, "
         "block_y, "
         "block_z, registers, static_smem, dynamic_smem, name_id, category_id"},
        {"memcpys", "start_ns",
         "run_id, rank, device, stream, start_ns, end_ns, correlation, bytes, copy_kind, src_kind, dst_kind, "
         "name_id"},
        {"memsets", "start_ns",
         "run_id, rank, device, stream, start_ns, end_ns, correlation, bytes, value, mem_kind, name_id"},
        {"api_calls", "start_ns", "run_id, rank, pid, tid, start_ns, end_ns, correlation, kind, name_id"},
        {"cpu_ranges", "start_ns",
         "run_id, rank, pid, tid, start_ns, end_ns, depth, kind, correlation, name_id, domain_id, color"},
        {"gpu_annotations", "start_ns", "run_id, rank, device, stream, start_ns, end_ns, name_id"},
        {"flows", "correlation", "run_id, rank, correlation, cpu_ns, tid, gpu_ns, stream"},
        {"counters", "ts_ns", "run_id, rank, device, ts_ns, value, name_id"}};
    return tables;
}

const EventTable* findEventTable(std::string_view name) {
    for (const auto& t : eventTables())
        if (t.name == name)
            return &t;
    return nullptr;
}

const std::vector<std::string_view>& perRunTables() {
    static const std::vector<std::string_view> tables = {
        "kernels", "memcpys",  "memsets", "api_calls", "cpu_ranges", "gpu_annotations",
        "flows",   "counters", "steps",   "ranks",     "run_rows",   "run_attributes"};
    return tables;
}

} // namespace cnp::schema
