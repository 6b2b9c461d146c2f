#pragma once
// Everything the collector reads from its environment, read once at injection. Plain C++ (tested
// without CUDA). Variables:
//   CNP_OUTPUT_DIR (default "."), CNP_CONFIG, CNP_RUN, CNP_IMAGE, CNP_CAPTURE (CaptureSpec.h),
//   CNP_FLUSH_MS (periodic flush, default 2000), CNP_BUFFER_KB (CUPTI buffer size, default 2048),
//   CNP_BUFFER_COUNT (pre-allocated, pre-touched buffers, default 32: 64 MiB; the pool is then bounded by
//   boundBuffers), CNP_DRIVER_API (launch | all |
//   none; default launch), CNP_RUNTIME_API (quiet | all; default quiet: state queries such as cudaGetDevice
//   are left out), CNP_COLLECTOR_DISABLE=1 (inject nothing).
// Rank / local rank / world size come from the usual launchers: torchrun (RANK, LOCAL_RANK, WORLD_SIZE),
// Open MPI (OMPI_COMM_WORLD_*), PMI (PMI_RANK, PMI_SIZE) and Slurm (SLURM_PROCID, SLURM_LOCALID,
// SLURM_NTASKS), local world size from LOCAL_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS or
// SLURM_NTASKS_PER_NODE.
#include "CaptureSpec.h"
#include "MemoryBudget.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cnp::collector {

struct CollectorConfig {
    enum class DriverApi { Launch, All, None };

    std::string outputDir = ".";
    std::string config, run, image;
    CaptureSpec capture;
    std::uint32_t flushMs = 2000;
    std::size_t bufferBytes = 2u << 20;
    std::size_t bufferCount = 32;
    DriverApi driverApi = DriverApi::Launch;
    bool allRuntimeApis = false;
    bool disabled = false;
    int rank = -1, localRank = -1, worldSize = -1;
    // Processes of the job on this node (LOCAL_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS,
    // SLURM_NTASKS_PER_NODE; 1 to 4096, else unknown = 1): they share the node's memory, so each pool gets
    // its share of the budget (issue 33.8: 1,024 buffers in each of eight ranks took about 90 % of RAM).
    int localWorldSize = 1;
    std::vector<std::pair<std::string, std::string>> allowedEnv; // only EnvAllowList names
    std::vector<std::string> warnings;                           // bad values that fell back to defaults

    static constexpr std::size_t kMinBufferBytes = 64u << 10, kMinBufferCount = 2;

    // Reads the process environment (`envp`, e.g. environ).
    static CollectorConfig fromEnvironment(char** envp);
    // Shrinks the buffer pool to poolBudget(limits) when it is larger: fewer buffers first (down to
    // kMinBufferCount), then smaller ones (down to kMinBufferBytes), with one warning naming the
    // settings, the budget and its sources. Returns false (warning added) when even the smallest pool
    // does not fit: the collector then stays out of the way and the job runs untraced.
    bool boundBuffers(const MemoryLimits& limits);
    // `<dir>/<host>-<pid>[-r<rank>].cnpt`
    std::string outputPath(const std::string& host, long pid) const;
};

} // namespace cnp::collector
