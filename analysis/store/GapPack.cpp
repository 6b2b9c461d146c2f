#include "store/GapPack.h"

#include "core/InputError.h"
#include "core/PackedBytes.h"

#include <algorithm>
#include <limits>
#include <map>

namespace cnp {

namespace {

constexpr std::uint64_t kMaxRawBytes = std::uint64_t{1} << 30;
constexpr std::uint64_t kMinBytesPerGap = 8; // eight one-byte varints at the least
constexpr const char* kTable = "summary_gap_pack";

// Texts in first-seen order and their indexes (1-based: 0 is "none" for the names).
class Dictionary {
public:
    std::uint64_t indexOf(const std::string& s) {
        const auto [it, fresh] = index_.emplace(s, order_.size() + 1);
        if (fresh)
            order_.push_back(s);
        return it->second;
    }
    void put(std::string& out) const {
        putVarint(out, order_.size());
        for (const auto& s : order_)
            putText(out, s);
    }

private:
    std::map<std::string, std::uint64_t, std::less<>> index_;
    std::vector<std::string> order_;
};

std::uint64_t wrappingDifference(std::int64_t a, std::int64_t b) {
    return static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b);
}

std::int64_t wrappingSum(std::int64_t a, std::uint64_t d) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + d);
}

std::vector<std::string> readDictionary(PackedReader& rd, const char* what) {
    const std::uint64_t n = rd.varint();
    if (n > rd.left()) // each text takes at least its length byte
        rd.fail(std::string("states more ") + what + " than it holds");
    std::vector<std::string> out;
    out.reserve(n);
    for (std::uint64_t k = 0; k < n; ++k)
        out.push_back(rd.text());
    return out;
}

// Reads the next gap into `g`, which holds the gap before it (or, before the first, a default row of the
// rank): every member is assigned, the texts into their existing capacity.
void readGap(PackedReader& rd, const std::vector<std::string>& states, const std::vector<std::string>& names,
             SummaryGapRow& g) {
    const std::int64_t step = wrappingSum(g.stepIndex, static_cast<std::uint64_t>(rd.signedVarint()));
    if (step < -1 || step > std::numeric_limits<std::int32_t>::max())
        rd.fail("names step " + std::to_string(step));
    g.stepIndex = static_cast<std::int32_t>(step);
    g.startNs = wrappingSum(g.startNs, rd.varint());
    g.endNs = wrappingSum(g.startNs, rd.varint());
    const std::uint64_t state = rd.varint();
    if (state == 0 || state > states.size())
        rd.fail("names cpu state " + std::to_string(state) + " of " + std::to_string(states.size()));
    g.cpuState = states[state - 1];
    g.launches = rd.signedVarint();
    g.syncNs = rd.signedVarint();
    g.dataWaitNs = rd.signedVarint();
    const std::uint64_t name = rd.varint();
    if ((name >> 1) > names.size())
        rd.fail("names kernel " + std::to_string(name >> 1) + " of " + std::to_string(names.size()));
    if ((name >> 1) > 0)
        g.nextName = names[(name >> 1) - 1];
    else
        g.nextName.reset();
    g.nextLaunchNs = (name & 1) ? wrappingSum(g.startNs, static_cast<std::uint64_t>(rd.signedVarint())) : -1;
}

std::string whatOf(std::int32_t rank) {
    return std::string(kTable) + " (rank " + std::to_string(rank) + ")";
}

// The raw bytes of a pack of format kFormat; InputError otherwise.
std::string rawOf(std::string_view pack, std::int64_t format, const std::string& what,
                  const std::string& file) {
    if (format != GapPackWriter::kFormat)
        throw InputError(file, what + ": format " + std::to_string(format) + " (this cnp reads format " +
                                   std::to_string(GapPackWriter::kFormat) + ")");
    return inflateWithLength(pack, kMaxRawBytes, file, what);
}

} // namespace

std::string GapPackWriter::finish() const {
    std::vector<const SummaryGapRow*> sorted;
    sorted.reserve(gaps_.size());
    for (const auto& g : gaps_)
        sorted.push_back(&g);
    std::sort(sorted.begin(), sorted.end(), [](const SummaryGapRow* a, const SummaryGapRow* b) {
        return a->startNs != b->startNs ? a->startNs < b->startNs : a->endNs < b->endNs;
    });
    Dictionary states, names;
    std::string body;
    SummaryGapRow previous;
    for (const SummaryGapRow* p : sorted) {
        const SummaryGapRow& g = *p;
        putVarint(body,
                  zigzag(static_cast<std::int64_t>(wrappingDifference(g.stepIndex, previous.stepIndex))));
        putVarint(body, wrappingDifference(g.startNs, previous.startNs));
        putVarint(body, wrappingDifference(g.endNs, g.startNs));
        putVarint(body, states.indexOf(g.cpuState));
        putVarint(body, zigzag(g.launches));
        putVarint(body, zigzag(g.syncNs));
        putVarint(body, zigzag(g.dataWaitNs));
        const std::uint64_t name = g.nextName ? names.indexOf(*g.nextName) : 0;
        const bool hasLaunch = g.nextLaunchNs != -1;
        putVarint(body, name << 1 | (hasLaunch ? 1 : 0));
        if (hasLaunch)
            putVarint(body, zigzag(static_cast<std::int64_t>(wrappingDifference(g.nextLaunchNs, g.startNs))));
        previous = g;
    }
    std::string raw;
    states.put(raw);
    names.put(raw);
    putVarint(raw, gaps_.size());
    raw += body;
    return deflateWithLength(raw);
}

GapPackReader::GapPackReader(std::string_view pack, std::int64_t format, std::int32_t rank,
                             const std::string& file)
    : what_(whatOf(rank)), raw_(rawOf(pack, format, what_, file)), rd_(raw_, file, what_) {
    states_ = readDictionary(rd_, "cpu states");
    names_ = readDictionary(rd_, "kernel names");
    count_ = rd_.varint();
    if (count_ > rd_.left() / kMinBytesPerGap)
        rd_.fail("states " + std::to_string(count_) + " gaps, more than it holds");
    gap_.rank = rank;
}

bool GapPackReader::next() {
    if (read_ == count_) {
        if (rd_.left() != 0)
            rd_.fail("has bytes after its last gap");
        return false;
    }
    readGap(rd_, states_, names_, gap_);
    ++read_;
    return true;
}

std::vector<SummaryGapRow> unpackGaps(std::string_view pack, std::int64_t format, std::int32_t rank,
                                      const std::string& file) {
    GapPackReader rd(pack, format, rank, file);
    std::vector<SummaryGapRow> out;
    out.reserve(rd.count());
    while (rd.next())
        out.push_back(rd.gap());
    return out;
}

} // namespace cnp
