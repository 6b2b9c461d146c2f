#pragma once
// One rank's GPU idle gaps (summary rows, core/SummaryRows.h SummaryGapRow) in one blob: the stored form
// of table summary_gap_pack (docs/schema.md). A row per gap cost ~86 bytes with its index; packed, a gap
// takes ~3-6 bytes, so a study's summaries stay small enough to fetch from a cluster (issue 27.4: <= 2 MB
// per rank) and a study is assembled by copying one blob per rank instead of re-binding every gap row.
//
// Format 1: core/PackedBytes deflateWithLength of the raw bytes. Raw: a varint count of cpu-state texts and
// each text, a varint count of next-kernel names and each name, a varint gap count, then per gap in start
// order: zigzag step-index delta (to the previous gap's), varint start delta and varint length (both mod
// 2^64, so every int64 round-trips), varint cpu-state index, zigzag launches, zigzag sync_ns, zigzag
// data_wait_ns, varint (name index << 1 | has next launch) (name index 0: none, k: the k-th name), then,
// when flagged, zigzag next_launch_ns - start_ns. Texts are stored, not string ids, so a pack means the
// same in every workspace and is copied verbatim between them.
#include "core/PackedBytes.h"
#include "core/SummaryRows.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class GapPackWriter {
public:
    static constexpr std::int64_t kFormat = 1;

    void add(const SummaryGapRow& gap) { gaps_.push_back(gap); }
    std::int64_t count() const { return static_cast<std::int64_t>(gaps_.size()); }
    // The packed gaps (format kFormat), sorted by (start, end). O(n log n).
    std::string finish() const;

private:
    std::vector<SummaryGapRow> gaps_;
};

// Reads a pack's gaps one at a time, in start order, into one row reused from gap to gap (its texts assigned
// into their capacity: no allocation per gap once they have grown). Refuses hostile bytes as unpackGaps
// does, throwing from the constructor (format, raw length, dictionaries, count) or from next() (a gap, or
// bytes after the last). O(gaps); memory: the raw bytes and the dictionaries. Keeps a reference to `file`.
class GapPackReader {
public:
    GapPackReader(std::string_view pack, std::int64_t format, std::int32_t rank, const std::string& file);
    GapPackReader(const GapPackReader&) = delete;
    GapPackReader& operator=(const GapPackReader&) = delete;

    // The gaps the pack states it holds.
    std::uint64_t count() const { return count_; }
    // Reads the next gap into gap(); false, once the pack is checked to end after its last gap, when none
    // is left.
    bool next();
    const SummaryGapRow& gap() const { return gap_; }

private:
    std::string what_, raw_; // before rd_, which reads them
    PackedReader rd_;
    std::vector<std::string> states_, names_;
    std::uint64_t count_ = 0, read_ = 0;
    SummaryGapRow gap_;
};

// The gaps of `pack` (rank `rank`'s), in start order. Hostile bytes (another format, truncated, an index
// past its dictionary, a count over what the bytes can hold, trailing bytes, more than 1 GiB raw) throw
// InputError naming `file` and the table. O(gaps).
std::vector<SummaryGapRow> unpackGaps(std::string_view pack, std::int64_t format, std::int32_t rank,
                                      const std::string& file);

} // namespace cnp
