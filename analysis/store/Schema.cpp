#include "store/Schema.h"

#include "store/Tables.h"

#include <string>
#include <utility>

namespace cnp::schema {

std::string_view createTablesSql() {
    static const std::string sql = [] {
        std::string s;
        for (const auto& t : workspaceTables())
            s += createTableSql(t);
        return s;
    }();
    return sql;
}

const std::vector<EventTable>& eventTables() {
    // (table, sort key); the column lists are generated from the descriptions (every column but id).
    static const std::vector<std::pair<Table, std::string_view>> described = {
        {kKernels.table(), "start_ns"},   {kMemcpys.table(), "start_ns"},
        {kMemsets.table(), "start_ns"},   {kApiCalls.table(), "start_ns"},
        {kCpuRanges.table(), "start_ns"}, {kGpuAnnotations.table(), "start_ns"},
        {kFlows.table(), "correlation"},  {kCounters.table(), "ts_ns"}};
    static const std::vector<std::string> columns = [] {
        std::vector<std::string> out;
        out.reserve(described.size());
        for (const auto& d : described)
            out.push_back(columnList(d.first, 1));
        return out;
    }();
    static const std::vector<EventTable> tables = [] {
        std::vector<EventTable> out;
        for (std::size_t i = 0; i < described.size(); ++i)
            out.push_back({described[i].first.name, described[i].second, columns[i]});
        return out;
    }();
    return tables;
}

const EventTable* findEventTable(std::string_view name) {
    for (const auto& t : eventTables())
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string_view eventTableOf(EventKind kind) {
    switch (kind) {
    case EventKind::Kernel:
        return kKernels.name;
    case EventKind::Memcpy:
        return kMemcpys.name;
    case EventKind::Memset:
        return kMemsets.name;
    case EventKind::ApiCall:
        return kApiCalls.name;
    case EventKind::CpuRange:
        return kCpuRanges.name;
    case EventKind::GpuAnnotation:
        return kGpuAnnotations.name;
    case EventKind::Step:
        return kSteps.name;
    }
    return kKernels.name;
}

const std::vector<std::string_view>& spanEventTables() {
    static const std::vector<std::string_view> tables = [] {
        std::vector<std::string_view> out;
        for (const auto& t : eventTables())
            if (t.sortKey == "start_ns")
                out.push_back(t.name);
        return out;
    }();
    return tables;
}

const std::vector<std::string_view>& perRunTables() {
    static const std::vector<std::string_view> tables = [] {
        std::vector<std::string_view> out;
        for (const auto& t : eventTables())
            out.push_back(t.name);
        for (std::string_view other : {"steps", "ranks", "run_rows", "run_attributes"})
            out.push_back(other);
        return out;
    }();
    return tables;
}

} // namespace cnp::schema
