#pragma once
// The .cnpt file format, version 1 (docs/cnpt-format.md is the prose form of this header).
//
// File   = 8-byte magic "CNPT\r\n\x1a\n", then chunks until end of file.
// Chunk  = u32 type | u32 payload length | payload | u32 CRC-32 (zlib polynomial) of type, length and
// payload. A reader stops at the first chunk that is short or fails its CRC: everything before it is valid,
// so a file cut short by SIGKILL reads back to its last whole chunk.
//
// Event chunks hold records: u16 type | u16 body size | body. A body is the little-endian image of one of the
// packed structs below. Readers copy min(size, sizeof(struct)) bytes and zero the rest, so later versions may
// append fields at the end of a struct and add new record types (unknown types are skipped by size).
//
// Times in records are raw CUPTI timestamps (ns); ClockPairRecords map them to CLOCK_REALTIME (Unix ns).
// String fields are ids into the file's string table (id 0 = ""), defined by String chunks that always
// precede the first record referring to them.
#include <cstdint>

namespace cnpt {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the .cnpt format is written in host order = little endian");

inline constexpr char kMagic[8] = {'C', 'N', 'P', 'T', '\r', '\n', '\x1a', '\n'};
inline constexpr std::uint32_t kFormatVersion = 1;
inline constexpr std::uint32_t kMaxChunkPayload = 64u << 20; // readers refuse larger chunks as corrupt

enum class ChunkType : std::uint32_t {
    Header = 1,  // key/value pairs: u32 count, then per pair u32 len + bytes (key), u32 len + bytes (value)
    Strings = 2, // u32 first id, u32 count, then per string u32 len + bytes; ids are first, first+1, ...
    Events = 3,  // records (see above) until the end of the payload
    End = 4,     // empty payload; written by a clean shutdown only
};

enum class RecordType : std::uint16_t {
    Kernel = 1,
    Memcpy = 2,
    Memset = 3,
    Api = 4,
    Synchronization = 5,
    Memory = 6,
    Overhead = 7,
    Marker = 8,
    MarkerData = 9,
    Device = 10,
    Context = 11,
    Name = 12,
    Dropped = 13,
    ClockPair = 14,
};

#pragma pack(push, 1)

struct KernelRecord {
    std::uint64_t start, end;
    std::uint64_t graphNodeId;
    std::int64_t gridId;
    std::uint32_t correlation, device, context, stream;
    std::int32_t grid[3], block[3];
    std::int32_t staticSmem, dynamicSmem;
    std::uint32_t registers;
    std::uint32_t name; // string id (mangled or demangled, as CUPTI reports it)
    std::uint32_t graphId;
    std::uint8_t launchType;
    std::uint8_t deviceLaunched;
};

// Covers MEMCPY and MEMCPY2 (peer to peer: srcDevice/dstDevice set, kind = PtoP).
struct MemcpyRecord {
    std::uint64_t start, end, bytes;
    std::uint32_t correlation, device, context, stream;
    std::uint32_t srcDevice, dstDevice;             // = device unless a peer copy
    std::uint8_t copyKind, srcKind, dstKind, flags; // CUpti_ActivityMemcpyKind / CUpti_ActivityMemoryKind
    std::uint8_t peer;                              // 1 for MEMCPY2
};

struct MemsetRecord {
    std::uint64_t start, end, bytes;
    std::uint32_t correlation, device, context, stream;
    std::uint32_t value;
    std::uint16_t memoryKind, flags;
};

enum class ApiDomain : std::uint8_t { Runtime = 0, Driver = 1 };

struct ApiRecord {
    std::uint64_t start, end;
    std::uint32_t correlation, pid, tid, cbid;
    std::uint32_t returnValue;
    std::uint32_t name; // string id of the function name, e.g. "cudaLaunchKernel"
    ApiDomain domain;
};

struct SynchronizationRecord {
    std::uint64_t start, end;
    std::uint32_t correlation, context, stream, cudaEventId;
    std::uint32_t type; // CUpti_ActivitySynchronizationType
};

// MEMORY2: one record per allocation or free (operation 1 = allocation, 2 = release).
struct MemoryRecord {
    std::uint64_t timestamp, address, bytes;
    std::uint32_t correlation, pid, device, context, stream;
    std::uint32_t operation, memoryKind;
    std::uint32_t name; // string id, e.g. the allocation's variable name when known
    std::uint8_t isAsync;
};

struct OverheadRecord {
    std::uint64_t start, end;
    std::uint32_t overheadKind, objectKind;
    std::uint32_t objectA, objectB; // pid/tid for a thread, device/context for a device
    std::uint32_t correlation;
};

// NVTX: flags as CUPTI's: 1 = instantaneous mark, 2 = range start, 4 = range end (0x2/0x4 per
// CUPTI_ACTIVITY_FLAG_MARKER_*). A start and its end share `id`; name/domain/color live on the start.
struct MarkerRecord {
    std::uint64_t timestamp;
    std::uint32_t id, flags;
    std::uint32_t pid, tid;     // thread that pushed/popped; 0/0 when CUPTI named a device/stream instead
    std::uint32_t name, domain; // string ids
};

struct MarkerDataRecord {
    std::uint64_t payload; // raw bits of the payload; meaning given by payloadKind
    std::uint32_t id, flags;
    std::uint32_t color; // ARGB, 0 = none
    std::uint32_t category;
    std::uint32_t payloadKind; // CUpti_MetricValueKind, 0 = none
};

struct DeviceRecord {
    std::uint64_t globalMemoryBytes;
    std::uint32_t id;
    std::uint32_t name; // string id
    std::uint8_t uuid[16];
    std::uint32_t ccMajor, ccMinor, multiprocessors;
};

struct ContextRecord {
    std::uint32_t context, device;
    std::uint32_t nullStream;
};

// NAME: a user name for a thread (pid/tid) or a stream (device/context/stream), e.g. from nvtxNameOsThread.
struct NameRecord {
    std::uint32_t objectKind; // CUpti_ActivityObjectKind: 1 process, 2 thread, 3 device, 4 context, 5 stream
    std::uint32_t a, b, c;    // thread: pid, tid, 0; stream: device, context, stream
    std::uint32_t name;       // string id
};

// CUPTI's count of records it dropped for lack of buffer space (per context/stream, cumulative delta).
struct DroppedRecord {
    std::uint64_t realtimeNs;
    std::uint64_t count;
    std::uint32_t context, stream;
};

// One reading of both clocks: cuptiBefore <= the instant realtimeNs was read <= cuptiAfter.
struct ClockPairRecord {
    std::uint64_t realtimeNs;  // CLOCK_REALTIME, ns since the Unix epoch
    std::uint64_t cuptiBefore; // cuptiGetTimestamp() just before
    std::uint64_t cuptiAfter;  // and just after
};

#pragma pack(pop)

// Header keys written by the collector (values are UTF-8 text). env.<NAME> keys carry allow-listed env only.
namespace key {
inline constexpr const char* kProducer = "producer"; // "libcnp-collector 0.1.0"
inline constexpr const char* kHost = "host";
inline constexpr const char* kPid = "pid";
inline constexpr const char* kRank = "rank"; // -1 when no launcher variable names one
inline constexpr const char* kLocalRank = "local_rank";
inline constexpr const char* kWorldSize = "world_size";
inline constexpr const char* kDriverVersion = "driver_version"; // e.g. "13000"
inline constexpr const char* kCudaVersion = "cuda_version";
inline constexpr const char* kCuptiVersion = "cupti_version"; // cuptiGetVersion()
inline constexpr const char* kConfig = "config";              // CNP_CONFIG
inline constexpr const char* kRun = "run";                    // CNP_RUN
inline constexpr const char* kImage = "image";                // CNP_IMAGE
inline constexpr const char* kCapture = "capture";            // CNP_CAPTURE as parsed
inline constexpr const char* kStartRealtime = "start_realtime_ns";
inline constexpr const char* kCommand = "command"; // argv[0] of the traced process
// Written by `cnp synth` only (docs/synth.md): the file is generated, not measured, and says so.
inline constexpr const char* kSynthetic = "synthetic";           // "1"
inline constexpr const char* kStudy = "study";                   // the study file's name
inline constexpr const char* kSeed = "seed";                     // the generator's seed
inline constexpr const char* kTokensPerStep = "tokens_per_step"; // whole job
inline constexpr const char* kFlopsPerStep = "flops_per_step";   // model FLOPs per step, whole job
inline constexpr const char* kPeakFlops = "peak_flops";          // peak FLOP/s of one GPU
} // namespace key

} // namespace cnpt
