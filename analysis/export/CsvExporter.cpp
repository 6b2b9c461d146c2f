#include "export/CsvExporter.h"

#include "core/InputError.h"
#include "export/CsvWriter.h"
#include "export/KernelStatsCsv.h"
#include "export/OutputFile.h"
#include "metrics/RunSummaryReader.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <initializer_list>

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
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw InputError(dir, "cannot create the output folder" + (ec ? ": " + ec.message() : std::string()));

    const TraceData& t = trace_;
    const auto& S = t.strings;
    CsvExportResult result;
    auto file = [&](const std::string& name, const std::function<void(CsvWriter&)>& body) {
        OutputFile out((fs::path(dir) / name).string());
        CsvWriter csv(out);
        body(csv);
        out.commit();
        result.files.emplace_back(name, csv.rows() - 1); // minus the header row
    };

    file("ranks.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "local_rank", "host", "pid", "gpu_names", "gpu_uuids", "clock_offset_ns",
                     "clock_skew_ns", "source_file"});
        for (const auto& r : t.ranks) {
            csv.field(r.rank).field(r.localRank).field(r.host).field(r.pid).field(joined(r.gpuNames, ';'));
            csv.field(joined(r.gpuUuids, ';'))
                .field(r.clockOffsetNs)
                .field(r.clockSkewEstimateNs)
                .field(r.sourceFile);
            csv.endRow();
        }
    });
    file("kernels.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "device", "stream", "start_ns", "end_ns", "duration_ns", "correlation", "grid_x",
                     "grid_y", "grid_z", "block_x", "block_y", "block_z", "registers", "static_smem",
                     "dynamic_smem", "name", "category"});
        for (const auto& k : t.kernels) {
            csv.field(k.rank).field(k.device).field(k.stream).field(k.start).field(k.end).field(k.end -
                                                                                                k.start);
            csv.field(k.correlation);
            for (int i = 0; i < 3; ++i)
                csv.field(k.grid[i]);
            for (int i = 0; i < 3; ++i)
                csv.field(k.block[i]);
            csv.field(k.registers)
                .field(k.staticSmem)
                .field(k.dynamicSmem)
                .field(S.at(k.name))
                .field(S.at(k.category));
            csv.endRow();
        }
    });
    file("memcpys.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "device", "stream", "start_ns", "end_ns", "duration_ns", "correlation", "bytes",
                     "copy_kind", "src_kind", "dst_kind", "name"});
        for (const auto& m : t.memcpys) {
            csv.field(m.rank).field(m.device).field(m.stream).field(m.start).field(m.end).field(m.end -
                                                                                                m.start);
            csv.field(m.correlation).field(m.bytes).field(toString(m.kind)).field(toString(m.srcKind));
            csv.field(toString(m.dstKind)).field(S.at(m.name));
            csv.endRow();
        }
    });
    file("memsets.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "device", "stream", "start_ns", "end_ns", "duration_ns", "correlation", "bytes",
                     "value", "mem_kind", "name"});
        for (const auto& m : t.memsets) {
            csv.field(m.rank).field(m.device).field(m.stream).field(m.start).field(m.end).field(m.end -
                                                                                                m.start);
            csv.field(m.correlation)
                .field(m.bytes)
                .field(m.value)
                .field(toString(m.memKind))
                .field(S.at(m.name));
            csv.endRow();
        }
    });
    file("api_calls.csv", [&](CsvWriter& csv) {
        header(csv,
               {"rank", "pid", "tid", "start_ns", "end_ns", "duration_ns", "correlation", "kind", "name"});
        for (const auto& a : t.apiCalls) {
            csv.field(a.rank).field(a.pid).field(a.tid).field(a.start).field(a.end).field(a.end - a.start);
            csv.field(a.correlation).field(toString(a.kind)).field(S.at(a.name));
            csv.endRow();
        }
    });
    file("cpu_ranges.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "pid", "tid", "start_ns", "end_ns", "duration_ns", "depth", "kind",
                     "correlation", "name", "domain", "color_argb"});
        for (const auto& c : t.cpuRanges) {
            csv.field(c.rank).field(c.pid).field(c.tid).field(c.start).field(c.end).field(c.end - c.start);
            csv.field(c.depth)
                .field(toString(c.kind))
                .field(c.correlation)
                .field(S.at(c.name))
                .field(S.at(c.domain));
            csv.field(c.color);
            csv.endRow();
        }
    });
    file("gpu_annotations.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "device", "stream", "start_ns", "end_ns", "duration_ns", "name"});
        for (const auto& g : t.gpuAnnotations) {
            csv.field(g.rank).field(g.device).field(g.stream).field(g.start).field(g.end).field(g.end -
                                                                                                g.start);
            csv.field(S.at(g.name));
            csv.endRow();
        }
    });
    file("flows.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "correlation", "cpu_ns", "tid", "gpu_ns", "stream"});
        for (const auto& f : t.flows) {
            csv.field(f.rank).field(f.correlation).field(f.cpuTs).field(f.tid).field(f.gpuTs).field(f.stream);
            csv.endRow();
        }
    });
    file("counters.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "device", "ts_ns", "value", "name"});
        for (const auto& c : t.counters) {
            csv.field(c.rank).field(c.device).field(c.ts).field(c.value).field(S.at(c.name));
            csv.endRow();
        }
    });
    file("steps.csv", [&](CsvWriter& csv) {
        header(csv,
               {"rank", "step_index", "name", "cpu_start_ns", "cpu_end_ns", "gpu_start_ns", "gpu_end_ns"});
        for (const auto& s : t.steps) {
            csv.field(s.rank).field(s.index).field(S.at(s.name)).field(s.cpuStart).field(s.cpuEnd);
            csv.field(s.gpuStart).field(s.gpuEnd);
            csv.endRow();
        }
    });

    if (!summaries_) {
        result.notes.push_back("no stored summaries for this run: summary CSVs were not written");
        return result;
    }
    const RunSummaryReader& sum = *summaries_;
    file("kernel_stats.csv", [&](CsvWriter& csv) {
        KernelStatsCsv::header(csv);
        std::vector<std::int32_t> scopes{-1};
        if (t.ranks.size() > 1)
            for (const auto& r : t.ranks)
                scopes.push_back(r.rank);
        for (auto scope : scopes)
            for (const auto& k : sum.kernelStats(scope))
                KernelStatsCsv::row(csv, scope, k);
    });
    const auto ranks = sum.ranks();
    const auto steps = sum.steps();
    std::vector<const ExclusiveNs*> all;
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
    file("idle_gaps.csv", [&](CsvWriter& csv) {
        header(csv, {"rank", "step_index", "start_ns", "end_ns", "length_ns", "cpu_state", "launches",
                     "sync_ns", "data_wait_ns", "next_kernel", "next_launch_ns"});
        for (const auto& g : sum.idleGaps(0)) {
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
    return result;
}

} // namespace cnp
