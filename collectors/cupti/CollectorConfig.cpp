#include "CollectorConfig.h"

#include "EnvAllowList.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>

namespace cnp::collector {

namespace {

bool parseInt(const std::string& s, long& v) {
    if (s.empty())
        return false;
    char* end = nullptr;
    v = std::strtol(s.c_str(), &end, 10);
    return end && *end == '\0';
}

// `v` as a warning shows it on the job's stderr, often a terminal: every C0 control (newline and tab
// included: a warning is one line), DEL and every C1 control (UTF-8 C2 80..9F) becomes '?', so a hostile
// value cannot move the cursor, retitle the window or start a second line; and at most `maxShown` bytes
// of it are shown, then "..." (a megabyte value would otherwise be printed whole).
std::string shown(std::string_view v, std::size_t maxShown = 64) {
    std::string out;
    std::size_t i = 0;
    for (; i < v.size() && out.size() < maxShown; ++i) {
        const auto c = static_cast<unsigned char>(v[i]);
        const auto next = i + 1 < v.size() ? static_cast<unsigned char>(v[i + 1]) : 0u;
        if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {
            out += '?';
            ++i;
        } else {
            out += c < 0x20 || c == 0x7F ? '?' : static_cast<char>(c);
        }
    }
    if (i < v.size())
        out += "...";
    return out;
}

} // namespace

CollectorConfig CollectorConfig::fromEnvironment(char** envp) {
    CollectorConfig c;
    std::map<std::string, std::string, std::less<>> env;
    for (char** e = envp; e && *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        if (!eq)
            continue;
        std::string name(*e, static_cast<std::size_t>(eq - *e));
        env.emplace(name, std::string(eq + 1));
    }
    auto get = [&](std::string_view k) -> std::string {
        auto it = env.find(k);
        return it == env.end() ? std::string() : it->second;
    };
    auto number = [&](std::string_view k, long lo, long hi, long fallback) {
        const std::string v = get(k);
        long n = 0;
        if (v.empty())
            return fallback;
        if (!parseInt(v, n) || n < lo || n > hi) {
            c.warnings.push_back(std::string(k) + "='" + shown(v) + "' is not a number in [" +
                                 std::to_string(lo) + ", " + std::to_string(hi) + "]; using " +
                                 std::to_string(fallback));
            return fallback;
        }
        return n;
    };
    auto firstInt = [&](std::initializer_list<std::string_view> names) {
        for (auto n : names) {
            long v = 0;
            if (parseInt(get(n), v))
                return static_cast<int>(v);
        }
        return -1;
    };

    if (!get("CNP_OUTPUT_DIR").empty())
        c.outputDir = get("CNP_OUTPUT_DIR");
    c.config = get("CNP_CONFIG");
    c.run = get("CNP_RUN");
    c.image = get("CNP_IMAGE");
    c.capture = CaptureSpec::parse(get("CNP_CAPTURE"));
    if (!c.capture.error.empty())
        c.warnings.push_back(shown(c.capture.error, 512) + "; capturing the whole run");
    c.flushMs = static_cast<std::uint32_t>(number("CNP_FLUSH_MS", 50, 3600000, 2000));
    c.bufferBytes = static_cast<std::size_t>(
                        number("CNP_BUFFER_KB", static_cast<long>(kMinBufferBytes >> 10), 1 << 20, 2048)) *
                    1024;
    c.bufferCount =
        static_cast<std::size_t>(number("CNP_BUFFER_COUNT", static_cast<long>(kMinBufferCount), 1024, 32));
    const std::string drv = get("CNP_DRIVER_API");
    if (drv == "all")
        c.driverApi = DriverApi::All;
    else if (drv == "none")
        c.driverApi = DriverApi::None;
    else if (!drv.empty() && drv != "launch")
        c.warnings.push_back("CNP_DRIVER_API='" + shown(drv) + "' is not launch, all or none; using launch");
    const std::string rt = get("CNP_RUNTIME_API");
    if (rt == "all")
        c.allRuntimeApis = true;
    else if (!rt.empty() && rt != "quiet")
        c.warnings.push_back("CNP_RUNTIME_API='" + shown(rt) + "' is not quiet or all; using quiet");
    c.disabled = get("CNP_COLLECTOR_DISABLE") == "1";
    c.rank = firstInt({"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"});
    c.localRank = firstInt({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
    c.worldSize = firstInt({"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"});
    const int local = firstInt(
        {"LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"});
    c.localWorldSize = local >= 1 && local <= 4096 ? local : 1;
    for (const auto& [k, v] : env)
        if (cnp::isAllowedEnvName(k))
            c.allowedEnv.emplace_back(k, v);
    return c;
}

bool CollectorConfig::boundBuffers(const MemoryLimits& limits) {
    const std::uint64_t ranks = localWorldSize > 1 ? static_cast<std::uint64_t>(localWorldSize) : 1;
    std::optional<std::uint64_t> budget = poolBudget(limits);
    if (budget)
        *budget /= ranks; // every rank on the node takes its pool from the same memory
    const std::uint64_t wanted = std::uint64_t(bufferCount) * bufferBytes;
    if (!budget || wanted <= *budget)
        return true;
    const std::string settings =
        "CNP_BUFFER_COUNT=" + std::to_string(bufferCount) +
        " x CNP_BUFFER_KB=" + std::to_string(bufferBytes >> 10) + " (" + byteText(wanted) +
        ") exceeds the buffer budget of " + byteText(*budget) + " (1/" + std::to_string(kHeadroomShare) +
        " of the free memory" +
        (ranks > 1 ? " shared among " + std::to_string(ranks) + " local ranks" : std::string()) + ": " +
        describeLimits(limits) + ")";
    if (*budget < std::uint64_t(kMinBufferCount) * kMinBufferBytes) {
        warnings.push_back(settings + "; the job runs untraced");
        return false;
    }
    bufferCount = static_cast<std::size_t>(std::max<std::uint64_t>(kMinBufferCount, *budget / bufferBytes));
    if (std::uint64_t(bufferCount) * bufferBytes > *budget) // even kMinBufferCount buffers are too big
        bufferBytes = static_cast<std::size_t>(*budget / kMinBufferCount) / kMinBufferBytes * kMinBufferBytes;
    warnings.push_back(settings + "; using " + std::to_string(bufferCount) + " buffers of " +
                       std::to_string(bufferBytes >> 10) + " KiB");
    return true;
}

std::string CollectorConfig::outputPath(const std::string& host, long pid) const {
    std::string p = outputDir;
    if (!p.empty() && p.back() != '/')
        p += '/';
    p += host + "-" + std::to_string(pid);
    if (rank >= 0)
        p += "-r" + std::to_string(rank);
    return p + ".cnpt";
}

} // namespace cnp::collector
