#include "export/CsvExporter.h"

#include "core/InputError.h"
#include "export/CsvWriter.h"
#include "export/KernelStatsCsv.h"
#include "export/OutputFile.h"
#include "export/OutputFolder.h"
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"
#include "store/Tables.h"

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <type_traits>

namespace cnp {

namespace {

std::string joined(const std::vector<std::string>& v, char sep) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i)
            s += sep;
        s += v[i];
    }
    return s;
}

void header(CsvWriter& csv, std::initializer_list<const char*> names) {
    for (const char* n : names)
        csv.field(n);
    csv.endRow();
}

// ---- Event files: one per row table, by the rules in CsvExporter.h.

std::string csvName(const schema::Column& c, bool stringId) {
    std::string name(c.name);
    if (stringId && name.ends_with("_id"))
        name.resize(name.size() - 3);
    if (c.unit == "ARGB")
        name += "_argb";
    return name;
}

struct CsvValue {
    CsvWriter& csv;
    const StringTable& strings;
    void operator()(const schema::StringRef& s) const { csv.field(strings.at(s.id)); }
    void operator()(const std::string& s) const { csv.field(s); }
    void operator()(const std::vector<std::string>& v) const { csv.field(joined(v, ';')); }
    void operator()(double v) const { csv.field(v); }
    template <class T> void operator()(T v) const {
        if constexpr (std::is_enum_v<T>)
            csv.field(toString(v));
        else
            csv.field(static_cast<std::int64_t>(v));
    }
};

template <class Desc, class Row>
void eventFile(CsvWriter& csv, const Desc& desc, const std::vector<Row>& rows, const StringTable& strings) {
    const schema::Table table = desc.table();
    const bool duration = table.has("start_ns") && table.has("end_ns");
    desc.visitColumns([&](const schema::Column& c, bool stringId) {
        csv.field(csvName(c, stringId));
        if (duration && c.name == "end_ns")
            csv.field("duration_ns");
    });
    csv.endRow();
    const CsvValue value{csv, strings};
    for (const Row& row : rows) {
        desc.visit(row, [&](const schema::Column& c, const auto& v) {
            value(v);
            if constexpr (requires { row.end - row.start; })
                if (duration && c.name == "end_ns")
                    csv.field(row.end - row.start);
        });
        csv.endRow();
    }
}

// ---- Summary files.

// Category names of the exclusive-time columns, in the first rank's (priority) order, then any new ones.
std::vector<std::string> exclusiveColumns(const std::vector<const ExclusiveNs*>& all) {
    std::vector<std::string> cols;
    for (const auto* ex : all)
        for (const auto& [cat, ns] : *ex)
            if (std::find(cols.begin(), cols.end(), cat) == cols.end())
                cols.push_back(cat);
    return cols;
}

void exclusiveFields(CsvWriter& csv, const std::vector<std::string>& cols, const ExclusiveNs& ex) {
    for (const auto& c : cols) {
        auto it = std::find_if(ex.begin(), ex.end(), [&](const auto& p) { return p.first == c; });
        csv.field(it == ex.end() ? std::int64_t{0} : it->second);
    }
}

void breakdownFields(CsvWriter& csv, const BreakdownNs& b) {
    csv.field(b.compute).field(b.communication).field(b.overlap).field(b.memory).field(b.idle);
    csv.field(b.communicationTotal);
    if (auto f = b.overlapFraction())
        csv.field(*f);
    else
        csv.empty();
}

} // namespace

CsvExportResult CsvExporter::write(const std::string& dir) const {
    OutputFolder folder(dir); // appears only when every file is written (issue 33.6)
    CsvExportResult result;
    const WriteFile file = [&](const std::string& name, const FileBody& body) {
        folder.write(name, [&](const std::string& at) {
            OutputFile out(at);
            CsvWriter csv(out);
            body(csv);
            out.commit();
            result.files.emplace_back(name, csv.rows() - 1); // minus the header row
        });
    };
    writeEventFiles(file);
    if (!summaries_) {
        result.notes.push_back("no stored summaries for this run: summary CSVs were not written");
        folder.commit();
        return result;
    }
    writeKernelStats(file);
    writeBreakdowns(file);
    writeIdleGaps(file);
    folder.commit();
    return result;
}

void CsvExporter::writeEventFiles(const WriteFile& file) const {
    const TraceData& t = trace_;
    auto events = [&](const auto& desc, const auto& rows) {
        file(std::string(desc.name) + ".csv", [&](CsvWriter& csv) { eventFile(csv, desc, rows, t.strings); });
    };
    events(schema::kRanks, t.ranks);
    events(schema::kKernels, t.kernels);
    events(schema::kMemcpys, t.memcpys);
    events(schema::kMemsets, t.memsets);
    events(schema::kApiCalls, t.apiCalls);
    events(schema::kCpuRanges, t.cpuRanges);
    events(schema::kGpuAnnotations, t.gpuAnnotations);
    events(schema::kFlows, t.flows);
    events(schema::kCounters, t.counters);
    events(schema::kSteps, t.steps);
}

void CsvExporter::writeKernelStats(const WriteFile& file) const {
    file("kernel_stats.csv", [&](CsvWriter& csv) {
        KernelStatsCsv::header(csv);
        std::vector<std::int32_t> scopes{-1};
        if (trace_.ranks.size() > 1)
            for (const auto& r : trace_.ranks)
                scopes.push_back(r.rank);
        for (auto scope : scopes)
            for (const auto& k : summaries_->kernelStats(scope))
                KernelStatsCsv::row(csv, scope, k);
    });
}

void CsvExporter::writeBreakdowns(const WriteFile& file) const {
    const auto ranks = summaries_->ranks();
    const auto steps = summaries_->steps();
    std::vector<const ExclusiveNs*> all;
    all.reserve(ranks.size() + steps.size());
    for (const auto& r : ranks)
        all.push_back(&r.exclusive);
    for (const auto& s : steps)
        all.push_back(&s.exclusive);
    const auto cols = exclusiveColumns(all);
    auto exclusiveHeader = [&](CsvWriter& csv) {
        for (const auto& c : cols)
            csv.field("exclusive_" + c + "_ns");
        csv.endRow();
    };
    file("breakdown_per_rank.csv", [&](CsvWriter& csv) {
        for (const char* h :
             {"rank", "window_start_ns", "window_end_ns", "window_ns", "compute_ns", "communication_ns",
              "overlap_ns", "memory_ns", "idle_ns", "communication_total_ns", "overlap_fraction",
              "kernel_time_ns", "kernel_count", "memcpy_count", "memset_count", "memcpy_bytes"})
            csv.field(h);
        exclusiveHeader(csv);
        for (const auto& r : ranks) {
            csv.field(r.rank);
            if (r.window)
                csv.field(r.window->start).field(r.window->end);
            else
                csv.empty().empty();
            csv.field(r.breakdown.window());
            breakdownFields(csv, r.breakdown);
            csv.field(r.kernelTimeNs).field(r.counts.kernel).field(r.counts.memcpy).field(r.counts.memset);
            csv.field(r.memcpyBytes);
            exclusiveFields(csv, cols, r.exclusive);
            csv.endRow();
        }
    });
    file("breakdown_per_step.csv", [&](CsvWriter& csv) {
        for (const char* h : {"rank", "step_index", "name", "cpu_start_ns", "cpu_end_ns", "gpu_start_ns",
                              "gpu_end_ns", "window_ns", "compute_ns", "communication_ns", "overlap_ns",
                              "memory_ns", "idle_ns", "communication_total_ns", "overlap_fraction"})
            csv.field(h);
        exclusiveHeader(csv);
        for (const auto& s : steps) {
            csv.field(s.rank)
                .field(s.index)
                .field(s.name)
                .field(s.cpuStart)
                .field(s.cpuEnd)
                .field(s.gpuStart);
            csv.field(s.gpuEnd).field(s.length());
            breakdownFields(csv, s.breakdown);
            exclusiveFields(csv, cols, s.exclusive);
            csv.endRow();
        }
    });
}

void CsvExporter::writeIdleGaps(const WriteFile& file) const {
    file("idle_gaps.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "step_index", "start_ns", "end_ns", "length_ns", "cpu_state", "launches",
                     "sync_ns", "data_wait_ns", "next_kernel", "next_launch_ns"});
        for (const auto& g : summaries_->idleGaps(0)) {
            csv.field(g.rank)
                .field(g.stepIndex)
                .field(g.start)
                .field(g.end)
                .field(g.length())
                .field(g.cpuState);
            csv.field(g.launches)
                .field(g.syncNs)
                .field(g.dataWaitNs)
                .field(g.nextKernel)
                .field(g.nextLaunchNs);
            csv.endRow();
        }
    });
}

} // namespace cnp
