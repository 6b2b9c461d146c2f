#pragma once
// SAX handler that turns a PyTorch-profiler (Kineto) Chrome-trace JSON into a TraceData, one event
// at a time: no DOM, memory = the TraceData being built plus one pending event.
//
// What is read (everything else is skipped without cost beyond tokenising it):
//  - traceEvents[]: ph "X" with cat kernel, gpu_memcpy, gpu_memset, cuda_runtime, cuda_driver, cpu_op,
//    user_annotation (ProfilerStep#N included), gpu_user_annotation, python_function (and the older
//    spellings Kernel/Memcpy/Memset/Runtime/Driver/Operator); ph "s"/"f" with cat ac2g (launch ->
//    GPU flows, paired by id); ph "i" named "[memory]" (profile_memory=True) on a CUDA device ->
//    counter samples "GPU memory allocated" / "GPU memory reserved" (bytes).
//  - deviceProperties[].{id,name}, distributedInfo.{rank,world_size}, baseTimeNanoseconds,
//    cuda_driver_version, cuda_runtime_version, cupti_version - before or after traceEvents.
//
// Time base (checked on the fixtures, see tst_kinetoimporter): Kineto writes ts/dur in microseconds
// with up to 3 decimals. Recent Kineto writes ts relative to `baseTimeNanoseconds` (Unix-epoch ns,
// a whole second) to keep ts within a double's exact range: absolute ns = base + ts*1000. Older traces
// (no baseTimeNanoseconds) write ts as Unix-epoch microseconds already. We convert the number *text*
// to integer ns exactly (NumberText.h) and add the base when the trace's earliest timestamp is below
// it (i.e. the timestamps are relative). Nothing is ever rounded to microseconds.
//
// Malformed single events (missing/non-numeric ts or dur, negative dur, NaN, out-of-range times,
// non-string name, non-object event) are skipped and counted in info.skipped with the byte offset
// of the first one. A document that is not a trace (top-level array, no traceEvents array) throws
// InputError; so does a trace without a single usable event.
#include "core/TraceData.h"

#include "core/RapidJson.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cnp {

class KinetoTraceParser {
public:
    // `tell` returns the current byte offset in the content (for skip reports and errors).
    KinetoTraceParser(std::string path, std::function<std::size_t()> tell);

    // RapidJSON SAX handler interface (numbers arrive as text: kParseNumbersAsStringsFlag).
    bool Null();
    bool Bool(bool b);
    bool Int(int) { return true; }
    bool Uint(unsigned) { return true; }
    bool Int64(std::int64_t) { return true; }
    bool Uint64(std::uint64_t) { return true; }
    bool Double(double) { return true; }
    bool RawNumber(const char* str, rapidjson::SizeType length, bool copy);
    bool String(const char* str, rapidjson::SizeType length, bool copy);
    bool StartObject();
    bool Key(const char* str, rapidjson::SizeType length, bool copy);
    bool EndObject(rapidjson::SizeType memberCount);
    bool StartArray();
    bool EndArray(rapidjson::SizeType elementCount);

    // Reserves event storage for a document of about `contentBytes` bytes, so that vectors never
    // reallocate (no copies, no doubled peak) while parsing. The reservation is sized for the densest
    // case (every event of one kind, >= 150 bytes of JSON each); pages never written stay virtual
    // and cost no resident memory.
    void reserveFor(std::int64_t contentBytes);

    // After a successful parse: applies the time base and rank, pairs flows, fills metadata.
    // Throws InputError when the document was not a trace or held no usable event.
    TraceData finish();

    // Counters for tests and the benchmark.
    std::int64_t eventsSeen() const { return eventsSeen_; }

private:
    enum class Top : std::uint8_t {
        None,
        TraceEvents,
        DeviceProperties,
        DistributedInfo,
        BaseTime,
        DriverVersion,
        RuntimeVersion,
        CuptiVersion
    };
    enum class Field : std::uint8_t { None, Ph, Cat, Name, Pid, Tid, Ts, Dur, Id, Args };
    enum class Arg : std::uint8_t {
        None,
        Device,
        Stream,
        Correlation,
        ExternalId,
        Bytes,
        Registers,
        SharedMemory,
        DynamicSharedMemory,
        StaticSharedMemory,
        Grid,
        Block,
        Kind,
        Size,
        DeviceType,
        DeviceId,
        TotalAllocated,
        TotalReserved,
        // NCCL call arguments (PyTorch profiler, on nccl kernels and record_param_comms)
        CollectiveName,
        InNelems,
        OutNelems,
        Dtype,
        GroupSize,
        GroupName,
        GroupDescription,
        GroupRanks
    };
    enum class Cat : std::uint8_t {
        Other,
        Kernel,
        Memcpy,
        Memset,
        Runtime,
        Driver,
        CpuOp,
        UserAnnotation,
        GpuUserAnnotation,
        PythonFunction,
        Ac2g
    };

    // One traceEvents[] element while it is being read. Reset field by field (no allocation).
    struct PendingEvent {
        char ph = 0;
        Cat cat = Cat::Other;
        bool hasName = false, hasTs = false, hasDur = false, hasId = false;
        bool pidNumeric = false, tidNumeric = false;
        const char* problem = nullptr; // first reason to skip this event, if any
        std::int64_t ts = 0, dur = 0, pid = 0, tid = 0, id = 0;
        std::int64_t device = -1, stream = -1, correlation = 0, externalId = 0, bytes = -1, size = -1;
        std::int64_t deviceType = -1, deviceId = -1, totalAllocated = -1, totalReserved = -1; // "[memory]"
        std::int32_t registers = 0, sharedMemory = 0, dynamicSharedMemory = -1, staticSharedMemory = -1;
        std::int32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
        std::string name; // capacity reused from event to event
        std::string kind; // ROCm memcpy args.kind ("HtoD")
        // A kernel's NCCL call arguments (core/CollectiveArgs.h); hasCollective once "Collective name" is
        // read.
        bool hasCollective = false;
        std::int64_t inNelems = -1, outNelems = -1, groupSize = -1;
        std::string collective, dtype, groupName, groupDescription, groupRanks;
        std::string otherCat; // the category text when cat == Cat::Other (capacity reused)
        std::int64_t offset = 0;
        void reset(std::int64_t at);
    };

    struct FlowEnd {
        std::int64_t id = 0;
        Ns ts = 0;
        std::int64_t tid = 0;
    };

    struct DeviceName {
        std::int64_t id = 0;
        std::string name;
    };

    void scalar(std::string_view text, bool isNumber, bool isString);
    void eventField(std::string_view text, bool isNumber, bool isString);
    void eventArg(std::string_view text, bool isNumber, bool isString);
    void topScalar(std::string_view text, bool isNumber, bool isString);
    void finishEvent();
    // The steps of finish(), in order.
    void placeOnClock(std::int32_t rank);
    void fillCopySizes();
    void linkFlows(std::int32_t rank);
    RankInfo rankAndRunInfo(std::int32_t rank);
    void finishMemorySample();
    void finishFlow();
    void finishComplete();
    // Where a GPU event ran: the device and the stream.
    struct GpuPlace {
        std::int32_t device = 0;
        std::int64_t stream = 0;
    };
    // A kernel, copy or fill of the current event: its span, correlation, device, stream and name set.
    template <class Event> Event gpuActivity(Ns start, Ns end, StringId name, GpuPlace gpu) const;
    void addKernel(Ns start, Ns end, StringId name, GpuPlace gpu);
    // The current kernel's NCCL call arguments, when it has a "Collective name".
    void addCollectiveArgs(const KernelEvent& k);
    // A string-valued arg of the current event: kind, collective name, dtype, process group.
    void eventStringArg(std::string_view text);
    void addMemcpy(Ns start, Ns end, StringId name, GpuPlace gpu);
    void addMemset(Ns start, Ns end, StringId name, GpuPlace gpu);
    void addApiCall(Ns start, Ns end, StringId name);
    void addCpuRange(Ns start, Ns end, StringId name);
    void addGpuAnnotation(Ns start, Ns end, StringId name, GpuPlace gpu);
    void skip(std::int64_t offset, const char* reason);
    // Counts a complete event of a category this parser does not read (e.g. "mtia_runtime").
    void countUnread();
    // When the file holds no GPU activity but unread events: a warning naming what was found and skipped.
    void warnIfOnlyUnread();
    StringId internName(const std::string& name);
    static Cat categoryOf(std::string_view cat);
    // What a key names at each depth Key() reads (None for keys the parser ignores); switch on the
    // length first, then compare: O(1) per key.
    static Top topKeyOf(const char* s, rapidjson::SizeType len);
    static Field eventFieldOf(const char* s, rapidjson::SizeType len);
    static Arg argOf(const char* s, rapidjson::SizeType len);

    std::string path_;
    // Complete events of unread categories, by category (at most kMaxUnreadCategories names; the rest
    // under "other"), for the warning of a file with no GPU activity (an MTIA trace).
    std::map<std::string, std::int64_t> unread_;
    static constexpr std::size_t kMaxUnreadCategories = 32;
    std::function<std::size_t()> tell_;
    TraceData trace_;

    int depth_ = 0;       // containers open
    Top top_ = Top::None; // which top-level member is being read
    bool sawRootObject_ = false;
    bool sawTraceEvents_ = false;
    bool inEvent_ = false; // inside a traceEvents[] object (depth 3)
    bool inArgs_ = false;  // inside that event's "args" object (depth 4)
    int dimIndex_ = 0;     // next element of args.grid / args.block (depth 5)
    Field field_ = Field::None;
    Arg arg_ = Arg::None;
    PendingEvent ev_;

    // Sub-objects of deviceProperties / distributedInfo.
    std::string topKey_; // key inside those objects
    DeviceName pendingDevice_;
    std::vector<DeviceName> devices_;

    bool hasBase_ = false, hasRank_ = false;
    Ns baseNs_ = 0;
    std::int64_t rank_ = 0, worldSize_ = 0;
    std::string driverVersion_, runtimeVersion_, cuptiVersion_;
    std::int64_t firstCpuPid_ = -1;
    Ns minRawTime_ = 0;
    bool anyTime_ = false;

    std::vector<FlowEnd> flowStarts_, flowEnds_;
    StringId allocatedName_ = 0, reservedName_ = 0; // counter names, interned on first use
    std::vector<std::pair<std::int64_t, std::int64_t>>
        apiSizes_; // (correlation, args.size) of ROCm API calls
    std::int64_t eventsSeen_ = 0;
};

} // namespace cnp
