#include "ingest/KernelDigest.h"

#include "core/InputError.h"
#include "core/PackedBytes.h"

#include <limits>

namespace cnp {

namespace {

constexpr std::uint64_t kMaxRawBytes = std::uint64_t{2} << 30;

} // namespace

void KernelDigestWriter::beginName(const std::string& name, const std::string& category,
                                   bool categoryFromRangeRule, std::int32_t categoryRank,
                                   std::int64_t count) {
    putText(raw_, name);
    putText(raw_, category);
    raw_.push_back(categoryFromRangeRule ? '\1' : '\0');
    putVarint(raw_, zigzag(categoryRank));
    putVarint(raw_, static_cast<std::uint64_t>(count));
    ++names_;
    first_ = true;
}

void KernelDigestWriter::duration(Ns d) {
    putVarint(raw_, first_ ? zigzag(d) : static_cast<std::uint64_t>(d - last_));
    first_ = false;
    last_ = d;
}

std::string KernelDigestWriter::finish() {
    std::string head;
    putVarint(head, names_);
    return deflateWithLength(head + raw_);
}

std::vector<KernelDigestGroup> decodeKernelDigest(std::string_view digest, std::int64_t format,
                                                  const std::string& file) {
    if (format != KernelDigestWriter::kFormat)
        throw InputError(file, "shard_part kernel_groups: format " + std::to_string(format) +
                                   " (this cnp reads format " + std::to_string(KernelDigestWriter::kFormat) +
                                   ")");
    const std::string raw = inflateWithLength(digest, kMaxRawBytes, file, "shard_part kernel_groups");
    PackedReader rd(raw, file, "shard_part kernel_groups: the digest");
    std::vector<KernelDigestGroup> groups;
    for (std::uint64_t names = rd.varint(); names > 0; --names) {
        KernelDigestGroup g;
        g.name = rd.text();
        g.category = rd.text();
        g.categoryFromRangeRule = rd.byte() != 0;
        const std::int64_t rank = unzigzag(rd.varint());
        if (rank < std::numeric_limits<std::int32_t>::min() ||
            rank > std::numeric_limits<std::int32_t>::max())
            rd.fail("names rank " + std::to_string(rank));
        g.rank = static_cast<std::int32_t>(rank);
        const std::uint64_t count = rd.varint();
        if (count > rd.left()) // each duration takes at least a byte
            rd.fail("states more durations than it holds");
        g.durations.reserve(count);
        Ns last = 0;
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t v = rd.varint();
            if (k == 0) {
                last = unzigzag(v);
            } else {
                if (v > static_cast<std::uint64_t>(std::numeric_limits<Ns>::max() - last))
                    rd.fail("holds a duration past the largest");
                last += static_cast<Ns>(v);
            }
            g.durations.push_back(last);
        }
        groups.push_back(std::move(g));
    }
    if (rd.left() != 0)
        rd.fail("has bytes after its last name");
    return groups;
}

void addKernelDigestGroups(std::vector<KernelDigestGroup>&& groups, KernelStatsPool& pool) {
    for (KernelDigestGroup& g : groups)
        pool.add(g.rank, g.name, g.category, g.categoryFromRangeRule, std::move(g.durations));
    groups.clear();
}

void addKernelDigest(std::string_view digest, std::int64_t format, const std::string& file,
                     KernelStatsPool& pool) {
    addKernelDigestGroups(decodeKernelDigest(digest, format, file), pool);
}

} // namespace cnp
