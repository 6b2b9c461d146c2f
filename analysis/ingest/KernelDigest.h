#pragma once
// The all-rank kernel statistics of a part of a run in mergeable form (table shard_part, docs/schema.md):
// every kernel name's durations, so that a study assembled from shards computes each name's all-rank
// summary_kernel row exactly as one ingest of the whole run would (KernelStatsPool: the exact median and
// standard deviation need every duration; counts and sums alone would not give them).
//
// Format 1: an 8-byte little-endian length of the raw bytes, then the raw bytes zlib-compressed. Raw: a
// varint name count, then per name: varint length + name, varint length + category, one byte (1: the
// category came from a range rule), a zigzag varint rank (the group the category came from), a varint
// count, then the durations ascending: the first zigzag, each next as the varint difference to the one
// before. Size: about 1-3 bytes per kernel launch before compression (durations of one name are close),
// i.e. a few hundred KB per rank of 1M events; 8 bytes per launch in memory while it is built.
#include "metrics/KernelStatsPool.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class KernelDigestWriter final : public KernelDurationSink {
public:
    static constexpr std::int64_t kFormat = 1;

    void beginName(const std::string& name, const std::string& category, bool categoryFromRangeRule,
                   std::int32_t categoryRank, std::int64_t count) override;
    void duration(Ns d) override;
    // The compressed digest (format kFormat). Call once, after KernelStatsPool::write.
    std::string finish();

private:
    std::string raw_;
    std::uint64_t names_ = 0;
    bool first_ = true;
    Ns last_ = 0;
};

// One name's group of a digest: what KernelStatsPool::add takes.
struct KernelDigestGroup {
    std::int32_t rank = 0; // the rank its category came from
    std::string name, category;
    bool categoryFromRangeRule = false;
    std::vector<Ns> durations; // ascending
};

// The digest's groups, in its (name) order. Hostile bytes (truncated, a length past the end, durations out
// of order, a raw length over 2 GiB, another format) throw InputError naming `file`. O(durations); memory:
// the raw bytes plus 8 bytes a duration; no buffer is filled twice (the durations are appended to vectors
// reserved once, not zero-filled first). Thread-safe (it touches no shared state): assemble decodes a
// shard's digest on its reader thread.
std::vector<KernelDigestGroup> decodeKernelDigest(std::string_view digest, std::int64_t format,
                                                  const std::string& file);

// Adds the groups to `pool` (one group per name, under the rank its category came from), moving their
// durations. O(groups) besides the pool's own work.
void addKernelDigestGroups(std::vector<KernelDigestGroup>&& groups, KernelStatsPool& pool);

// decodeKernelDigest, then addKernelDigestGroups.
void addKernelDigest(std::string_view digest, std::int64_t format, const std::string& file,
                     KernelStatsPool& pool);

} // namespace cnp
