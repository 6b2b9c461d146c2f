#include "StepDiffOutput.h"

#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/Units.h"

#include <iostream>

namespace cnp::cli {

namespace {

void jsonSide(JsonOutput& j, const StepDiffSide& s, Ns gpuStart, Ns span) {
    j.beginObject().key("run").str(s.run).key("rank").num(s.rank).key("step").num(s.step);
    j.key("steps").num(s.steps).key("cpu_start_ns").num(s.cpuStart).key("cpu_end_ns").num(s.cpuEnd);
    j.key("gpu_start_ns").num(gpuStart).key("gpu_span_ns").num(span).endObject();
}

void jsonTotals(JsonOutput& j, const AlignmentTotals& t) {
    j.key("totals").beginObject().key("span_a_ns").num(t.spanA).key("span_b_ns").num(t.spanB);
    j.key("delta_ns").num(t.spanB - t.spanA).key("matched").num(t.matched).key("added").num(t.added);
    j.key("removed").num(t.removed).key("slower_ns").num(t.slower).key("faster_ns").num(t.faster);
    j.key("added_ns").num(t.addedTime).key("removed_ns").num(t.removedTime).key("idle_ns").num(t.idle);
    j.endObject();
}

void jsonStreamId(JsonOutput& j, std::int32_t device, std::int64_t stream) {
    if (stream < 0 && device < 0)
        j.null();
    else
        j.beginObject().key("device").num(device).key("stream").num(stream).endObject();
}

void jsonItem(JsonOutput& j, const StepAlignment& s, const AlignedItem& i, bool normalized) {
    j.beginObject().key("kind").str(toString(i.kind)).key("name").str(s.name(i));
    if (normalized && i.a >= 0 && i.b >= 0 && s.b[static_cast<std::size_t>(i.b)].name != s.name(i))
        j.key("name_b").str(s.b[static_cast<std::size_t>(i.b)].name);
    if (i.a >= 0)
        j.key("a")
            .beginObject()
            .key("offset_ns")
            .num(s.offsetA(i))
            .key("duration_ns")
            .num(s.durationA(i))
            .endObject();
    if (i.b >= 0)
        j.key("b")
            .beginObject()
            .key("offset_ns")
            .num(s.offsetB(i))
            .key("duration_ns")
            .num(s.durationB(i))
            .endObject();
    if (i.kind == AlignKind::Matched)
        j.key("shift_ns").num(s.offsetB(i) - s.offsetA(i));
    j.endObject();
}

void jsonStream(JsonOutput& j, const StepAlignment& s, const AlignedStream& l, bool normalized) {
    j.beginObject().key("a");
    jsonStreamId(j, l.deviceA, l.streamA);
    j.key("b");
    jsonStreamId(j, l.deviceB, l.streamB);
    j.key("paired_by").str(l.pairedById ? "id" : (l.streamA >= 0 && l.streamB >= 0 ? "order" : "none"));
    j.key("matched").num(l.matched).key("added").num(l.added).key("removed").num(l.removed);
    j.key("busy_a_ns").num(l.busyA).key("busy_b_ns").num(l.busyB).key("slower_ns").num(l.slower);
    j.key("faster_ns").num(l.faster).key("added_ns").num(l.addedTime).key("removed_ns").num(l.removedTime);
    j.key("end_shift_ns").num(l.endShift).key("truncated").boolean(l.truncated);
    j.key("items").beginArray();
    for (const auto& i : l.items)
        jsonItem(j, s, i, normalized);
    j.endArray().endObject();
}

std::string dur(Ns v) {
    return units::duration(static_cast<double>(v));
}
std::string signedDur(Ns v) {
    return (v > 0 ? "+" : v < 0 ? "-" : "") + dur(v < 0 ? -v : v);
}
std::string shortName(const std::string& n) {
    return n.size() > 60 ? n.substr(0, 57) + "..." : n;
}

std::string streamLabel(std::int32_t device, std::int64_t stream) {
    return stream < 0 ? std::string("-") : std::to_string(device) + ":" + std::to_string(stream);
}

void printHeader(const StepDiffReport& r, bool normalized) {
    const auto& t = r.alignment.totals;
    std::cout << "step diff " << r.a.run << " (A) step " << r.a.step << " -> " << r.b.run << " (B) step "
              << r.b.step << (r.median ? " (median steps)" : "") << ", rank " << r.a.rank
              << (r.a.rank != r.b.rank ? "/" + std::to_string(r.b.rank) : "")
              << (normalized ? ", normalised names" : "") << "\n";
    std::cout << "GPU span " << dur(t.spanA) << " -> " << dur(t.spanB) << " (" << signedDur(t.spanB - t.spanA)
              << "): matched slower " << signedDur(t.slower) << ", matched faster " << signedDur(t.faster)
              << ", added " << signedDur(t.addedTime) << ", removed " << signedDur(-t.removedTime)
              << ", idle and overlap " << signedDur(t.idle) << "\n";
    std::cout << "activities: " << units::count(t.matched) << " matched, " << units::count(t.added)
              << " added, " << units::count(t.removed) << " removed\n\n";
}

void printStreams(const StepAlignment& s) {
    TableOutput st({"stream A", "stream B", ">matched", ">added", ">removed", ">busy A", ">busy B", ">slower",
                    ">faster", ">added time", ">removed time", ">end shift"});
    for (const auto& l : s.streams)
        st.addRow({streamLabel(l.deviceA, l.streamA), streamLabel(l.deviceB, l.streamB),
                   units::count(l.matched), units::count(l.added), units::count(l.removed), dur(l.busyA),
                   dur(l.busyB), signedDur(l.slower), signedDur(l.faster), dur(l.addedTime),
                   dur(l.removedTime), signedDur(l.endShift) + (l.truncated ? " (truncated)" : "")});
    st.print(std::cout);
}

void printJumps(const StepAlignment& s, std::size_t top) {
    const auto jumps = s.largestJumps(top == 0 ? static_cast<std::size_t>(-1) : top);
    if (jumps.empty())
        return;
    std::cout << "\nlargest shift jumps (shift = B's offset - A's at a matched activity; the jump from the "
                 "previous "
                 "matched one = its duration change + added - removed + gap changes)\n";
    TableOutput jt(
        {"stream A", ">at A", ">shift", ">jump", ">duration change", ">added", ">removed", "after activity"});
    for (const auto& j : jumps) {
        const auto& l = s.streams[static_cast<std::size_t>(j.stream)];
        const auto& item = l.items[static_cast<std::size_t>(j.item)];
        const AlignedItem* prev = j.previous >= 0 ? &l.items[static_cast<std::size_t>(j.previous)] : nullptr;
        jt.addRow({streamLabel(l.deviceA, l.streamA), dur(s.offsetA(item)), signedDur(j.after),
                   signedDur(j.after - j.before),
                   prev ? signedDur(s.durationB(*prev) - s.durationA(*prev)) : "-",
                   units::count(j.added) + " (" + dur(j.addedTime) + ")",
                   units::count(j.removed) + " (" + dur(j.removedTime) + ")",
                   prev ? shortName(s.name(*prev)) : std::string("(step start)")});
    }
    jt.print(std::cout);
}

} // namespace

void printStepDiffJson(const StepDiffReport& r, bool normalized) {
    const auto& s = r.alignment;
    JsonOutput j;
    j.beginObject().key("run_a").str(r.a.run).key("run_b").str(r.b.run).key("normalized").boolean(normalized);
    j.key("median").boolean(r.median).key("step_a");
    jsonSide(j, r.a, s.startA, s.totals.spanA);
    j.key("step_b");
    jsonSide(j, r.b, s.startB, s.totals.spanB);
    jsonTotals(j, s.totals);
    j.key("streams").beginArray();
    for (const auto& l : s.streams)
        jsonStream(j, s, l, normalized);
    j.endArray().endObject();
    std::cout << j.text();
}

void printStepDiffText(const StepDiffReport& r, bool normalized, std::size_t top) {
    printHeader(r, normalized);
    printStreams(r.alignment);
    printJumps(r.alignment, top);
}

} // namespace cnp::cli
