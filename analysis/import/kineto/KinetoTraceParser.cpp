#include "import/kineto/KinetoTraceParser.h"

#include "core/InputError.h"
#include "core/Utf8.h"
#include "import/common/CopyNames.h"
#include "import/common/CudaVersionText.h"
#include "import/common/FlowLinker.h"
#include "import/common/NumberText.h"
#include "import/common/SkipCounter.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

namespace cnp {

namespace {

// Times beyond +-3e18 ns (year 2065) are refused per event, so base + ts + dur cannot overflow int64.
constexpr std::int64_t kTimeLimitNs = 3'000'000'000'000'000'000LL;

template <std::size_t N> inline bool is(const char* s, rapidjson::SizeType len, const char (&lit)[N]) {
    return len == N - 1 && std::memcmp(s, lit, N - 1) == 0;
}

// RapidJSON (kParseNanAndInfFlag) hands NaN, Infinity, -Infinity over as number text.
bool isNanOrInfinity(std::string_view text) {
    if (!text.empty() && text[0] == '-')
        text.remove_prefix(1);
    return !text.empty() && (text[0] == 'N' || text[0] == 'I');
}

// Kineto writes the versions as numbers (12040 -> "12.4"); text is kept as written.
std::string cudaVersionText(std::string_view text, bool isNumber) {
    return isNumber ? CudaVersionText::fromText(text) : std::string(text);
}

} // namespace

void KinetoTraceParser::PendingEvent::reset(std::int64_t at) {
    ph = 0;
    cat = Cat::Other;
    otherCat.clear();
    hasName = hasTs = hasDur = hasId = false;
    pidNumeric = tidNumeric = false;
    problem = nullptr;
    ts = dur = pid = tid = id = 0;
    device = stream = -1;
    correlation = externalId = 0;
    bytes = size = -1;
    deviceType = deviceId = totalAllocated = totalReserved = -1;
    registers = sharedMemory = 0;
    dynamicSharedMemory = staticSharedMemory = -1;
    for (int i = 0; i < 3; ++i)
        grid[i] = block[i] = 0;
    name.clear();
    kind.clear();
    hasCollective = false;
    inNelems = outNelems = groupSize = -1;
    collective.clear();
    dtype.clear();
    groupName.clear();
    groupDescription.clear();
    groupRanks.clear();
    offset = at;
}

KinetoTraceParser::KinetoTraceParser(std::string path, std::function<std::size_t()> tell)
    : path_(std::move(path)), tell_(std::move(tell)) {}

void KinetoTraceParser::reserveFor(std::int64_t contentBytes) {
    // The cap keeps each reservation far below what an overcommit heuristic would refuse (4M events).
    constexpr std::int64_t kMinEventBytes = 150, kMaxReserve = std::int64_t{1} << 22;
    const auto n =
        static_cast<std::size_t>(std::clamp<std::int64_t>(contentBytes / kMinEventBytes, 0, kMaxReserve));
    trace_.kernels.reserve(n);
    trace_.memcpys.reserve(n);
    trace_.memsets.reserve(n);
    trace_.apiCalls.reserve(n);
    trace_.cpuRanges.reserve(n);
    trace_.gpuAnnotations.reserve(n);
    flowStarts_.reserve(n);
    flowEnds_.reserve(n);
}

KinetoTraceParser::Cat KinetoTraceParser::categoryOf(std::string_view c) {
    switch (c.size()) {
    case 4:
        if (c == "ac2g")
            return Cat::Ac2g;
        break;
    case 6:
        if (c == "kernel" || c == "Kernel")
            return Cat::Kernel;
        if (c == "cpu_op" || c == "Memcpy")
            return c[0] == 'c' ? Cat::CpuOp : Cat::Memcpy;
        if (c == "Memset")
            return Cat::Memset;
        if (c == "Driver")
            return Cat::Driver;
        break;
    case 7:
        if (c == "Runtime")
            return Cat::Runtime;
        break;
    case 8:
        if (c == "Operator")
            return Cat::CpuOp;
        break;
    case 10:
        if (c == "gpu_memcpy")
            return Cat::Memcpy;
        if (c == "gpu_memset")
            return Cat::Memset;
        break;
    case 11:
        if (c == "cuda_driver")
            return Cat::Driver;
        break;
    case 12:
        if (c == "cuda_runtime")
            return Cat::Runtime;
        break;
    case 15:
        if (c == "user_annotation")
            return Cat::UserAnnotation;
        if (c == "python_function")
            return Cat::PythonFunction;
        break;
    case 19:
        if (c == "gpu_user_annotation")
            return Cat::GpuUserAnnotation;
        break;
    default:
        break;
    }
    return Cat::Other;
}

// ---- SAX callbacks -------------------------------------------------------------------------

bool KinetoTraceParser::Null() {
    scalar({}, false, false);
    return true;
}

bool KinetoTraceParser::Bool(bool) {
    scalar({}, false, false);
    return true;
}

bool KinetoTraceParser::RawNumber(const char* str, rapidjson::SizeType length, bool) {
    scalar(std::string_view(str, length), true, false);
    return true;
}

bool KinetoTraceParser::String(const char* str, rapidjson::SizeType length, bool) {
    scalar(std::string_view(str, length), false, true);
    return true;
}

bool KinetoTraceParser::StartObject() {
    switch (depth_) {
    case 0:
        sawRootObject_ = true;
        break;
    case 2:
        if (top_ == Top::TraceEvents) {
            inEvent_ = true;
            field_ = Field::None;
            ev_.reset(
                static_cast<std::int64_t>(tell_())); // the iterative reader reports before taking the brace
        } else if (top_ == Top::DeviceProperties) {
            pendingDevice_ = DeviceName{-1, {}};
            topKey_.clear();
        }
        break;
    case 3:
        if (inEvent_) {
            if (field_ == Field::Args) {
                inArgs_ = true;
                arg_ = Arg::None;
            } else if (field_ != Field::None && field_ != Field::Pid && field_ != Field::Tid &&
                       !ev_.problem) {
                ev_.problem = "an event field that must be a scalar holds an object";
            }
        }
        break;
    default:
        break;
    }
    ++depth_;
    return true;
}

bool KinetoTraceParser::EndObject(rapidjson::SizeType) {
    --depth_;
    if (depth_ == 2 && inEvent_) {
        inEvent_ = false;
        finishEvent();
    } else if (depth_ == 3 && inArgs_) {
        inArgs_ = false;
    } else if (depth_ == 2 && top_ == Top::DeviceProperties) {
        if (pendingDevice_.id >= 0)
            devices_.push_back(std::move(pendingDevice_));
    }
    return true;
}

bool KinetoTraceParser::StartArray() {
    switch (depth_) {
    case 0:
        throw InputError(
            path_,
            "the top-level JSON value is an array, not a PyTorch-profiler trace (expected an object "
            "with a traceEvents array)",
            static_cast<std::int64_t>(tell_()));
    case 1:
        if (top_ == Top::TraceEvents)
            sawTraceEvents_ = true;
        break;
    case 2:
        if (top_ == Top::TraceEvents) {
            ++eventsSeen_;
            skip(static_cast<std::int64_t>(tell_()), "a traceEvents element is not an object");
        }
        break;
    case 3:
        if (inEvent_ && field_ != Field::None && field_ != Field::Args && !ev_.problem)
            ev_.problem = "an event field that must be a scalar holds an array";
        break;
    case 4:
        if (inArgs_ && (arg_ == Arg::Grid || arg_ == Arg::Block))
            dimIndex_ = 0;
        break;
    default:
        break;
    }
    ++depth_;
    return true;
}

bool KinetoTraceParser::EndArray(rapidjson::SizeType) {
    --depth_;
    if (depth_ == 4)
        arg_ = Arg::None;
    return true;
}

KinetoTraceParser::Top KinetoTraceParser::topKeyOf(const char* s, rapidjson::SizeType len) {
    if (is(s, len, "traceEvents"))
        return Top::TraceEvents;
    if (is(s, len, "deviceProperties"))
        return Top::DeviceProperties;
    if (is(s, len, "distributedInfo"))
        return Top::DistributedInfo;
    if (is(s, len, "baseTimeNanoseconds"))
        return Top::BaseTime;
    if (is(s, len, "cuda_driver_version"))
        return Top::DriverVersion;
    if (is(s, len, "cuda_runtime_version"))
        return Top::RuntimeVersion;
    if (is(s, len, "cupti_version"))
        return Top::CuptiVersion;
    return Top::None;
}

KinetoTraceParser::Field KinetoTraceParser::eventFieldOf(const char* s, rapidjson::SizeType len) {
    switch (len) {
    case 2:
        return is(s, len, "ph")   ? Field::Ph
               : is(s, len, "ts") ? Field::Ts
               : is(s, len, "id") ? Field::Id
                                  : Field::None;
    case 3:
        return is(s, len, "cat")   ? Field::Cat
               : is(s, len, "pid") ? Field::Pid
               : is(s, len, "tid") ? Field::Tid
               : is(s, len, "dur") ? Field::Dur
                                   : Field::None;
    case 4:
        return is(s, len, "name") ? Field::Name : is(s, len, "args") ? Field::Args : Field::None;
    default:
        return Field::None;
    }
}

KinetoTraceParser::Arg KinetoTraceParser::argOf(const char* s, rapidjson::SizeType len) {
    switch (len) {
    case 4:
        return is(s, len, "grid")   ? Arg::Grid
               : is(s, len, "kind") ? Arg::Kind
               : is(s, len, "size") ? Arg::Size
                                    : Arg::None;
    case 5:
        return is(s, len, "bytes")   ? Arg::Bytes
               : is(s, len, "block") ? Arg::Block
               : is(s, len, "dtype") ? Arg::Dtype
                                     : Arg::None;
    case 6:
        return is(s, len, "device") ? Arg::Device : is(s, len, "stream") ? Arg::Stream : Arg::None;
    case 11:
        return is(s, len, "correlation")   ? Arg::Correlation
               : is(s, len, "External id") ? Arg::ExternalId
               : is(s, len, "Device Type") ? Arg::DeviceType
                                           : Arg::None;
    case 9:
        return is(s, len, "Device Id") ? Arg::DeviceId : Arg::None;
    case 10:
        return is(s, len, "Group size") ? Arg::GroupSize : Arg::None;
    case 13:
        return is(s, len, "shared memory")   ? Arg::SharedMemory
               : is(s, len, "In msg nelems") ? Arg::InNelems
                                             : Arg::None;
    case 14:
        return is(s, len, "Total Reserved")   ? Arg::TotalReserved
               : is(s, len, "Out msg nelems") ? Arg::OutNelems
                                              : Arg::None;
    case 15:
        return is(s, len, "Total Allocated")   ? Arg::TotalAllocated
               : is(s, len, "Collective name") ? Arg::CollectiveName
                                               : Arg::None;
    case 18:
        return is(s, len, "Process Group Name") ? Arg::GroupName : Arg::None;
    case 19:
        return is(s, len, "Process Group Ranks") ? Arg::GroupRanks : Arg::None;
    case 25:
        return is(s, len, "Process Group Description") ? Arg::GroupDescription : Arg::None;
    case 20:
        return is(s, len, "registers per thread")   ? Arg::Registers
               : is(s, len, "static shared memory") ? Arg::StaticSharedMemory
                                                    : Arg::None;
    case 21:
        return is(s, len, "dynamic shared memory") ? Arg::DynamicSharedMemory : Arg::None;
    default:
        return Arg::None;
    }
}

bool KinetoTraceParser::Key(const char* s, rapidjson::SizeType len, bool) {
    switch (depth_) {
    case 1:
        top_ = topKeyOf(s, len);
        break;
    case 2:
        if (top_ == Top::DistributedInfo)
            topKey_.assign(s, len);
        break;
    case 3:
        if (inEvent_)
            field_ = eventFieldOf(s, len);
        else if (top_ == Top::DeviceProperties)
            topKey_.assign(s, len);
        break;
    case 4:
        if (inArgs_)
            arg_ = argOf(s, len);
        break;
    default:
        break;
    }
    return true;
}

// ---- values --------------------------------------------------------------------------------

void KinetoTraceParser::scalar(std::string_view text, bool isNumber, bool isString) {
    switch (depth_) {
    case 0:
        throw InputError(path_, "the top-level JSON value is not an object: not a PyTorch-profiler trace", 0);
    case 1:
        topScalar(text, isNumber, isString);
        break;
    case 2:
        if (top_ == Top::TraceEvents) {
            ++eventsSeen_;
            // The value has been consumed: step back over it (exact for numbers and unescaped strings).
            const auto back = static_cast<std::int64_t>(text.size()) + (isString ? 2 : 0);
            skip(static_cast<std::int64_t>(tell_()) - back, "a traceEvents element is not an object");
        } else if (top_ == Top::DistributedInfo) {
            std::int64_t v = 0;
            if (topKey_ == "rank" && parseInteger(text, v) && v >= 0 && v < (1 << 30)) {
                rank_ = v;
                hasRank_ = true;
            } else if (topKey_ == "world_size" && parseInteger(text, v) && v > 0 && v < (1 << 30)) {
                worldSize_ = v;
            }
        }
        break;
    case 3:
        if (inEvent_) {
            eventField(text, isNumber, isString);
        } else if (top_ == Top::DeviceProperties) {
            std::int64_t v = 0;
            if (topKey_ == "id" && parseInteger(text, v))
                pendingDevice_.id = v;
            else if (topKey_ == "name" && isString)
                pendingDevice_.name = repairUtf8(text);
        }
        break;
    case 4:
        if (inArgs_)
            eventArg(text, isNumber, isString);
        break;
    case 5:
        if (inArgs_ && (arg_ == Arg::Grid || arg_ == Arg::Block)) {
            std::int64_t v = 0;
            if (dimIndex_ < 3 && parseInteger(text, v) && v >= 0 && v <= INT32_MAX)
                (arg_ == Arg::Grid ? ev_.grid : ev_.block)[dimIndex_] = static_cast<std::int32_t>(v);
            ++dimIndex_;
        }
        break;
    default:
        break;
    }
}

void KinetoTraceParser::topScalar(std::string_view text, bool isNumber, bool isString) {
    switch (top_) {
    case Top::BaseTime: {
        std::int64_t v = 0;
        if (isNumber && parseInteger(text, v) && v > 0 && v < kTimeLimitNs) {
            baseNs_ = v;
            hasBase_ = true;
        }
        break;
    }
    case Top::DriverVersion:
        if (isNumber || isString)
            driverVersion_ = repairUtf8(cudaVersionText(text, isNumber));
        break;
    case Top::RuntimeVersion:
        if (isNumber || isString)
            runtimeVersion_ = repairUtf8(cudaVersionText(text, isNumber));
        break;
    case Top::CuptiVersion:
        if (isNumber || isString)
            cuptiVersion_ = repairUtf8(text);
        break;
    case Top::TraceEvents:
        throw InputError(path_, "traceEvents is not an array: not a PyTorch-profiler trace",
                         static_cast<std::int64_t>(tell_()));
    default:
        break;
    }
}

void KinetoTraceParser::eventField(std::string_view text, bool isNumber, bool isString) {
    auto fail = [&](const char* why) {
        if (!ev_.problem)
            ev_.problem = why;
    };
    switch (field_) {
    case Field::Ph:
        if (isString && !text.empty())
            ev_.ph = text[0];
        else
            fail("ph is not a string");
        break;
    case Field::Cat:
        if (isString) {
            ev_.cat = categoryOf(text);
            if (ev_.cat == Cat::Other)
                ev_.otherCat.assign(text.data(), std::min<std::size_t>(text.size(), 64));
        }
        break;
    case Field::Name:
        if (isString) {
            ev_.name.assign(text.data(), text.size());
            ev_.hasName = true;
        } else {
            fail("name is not a string");
        }
        break;
    case Field::Pid:
        ev_.pidNumeric = parseInteger(text, ev_.pid);
        break;
    case Field::Tid:
        ev_.tidNumeric = parseInteger(text, ev_.tid);
        break;
    case Field::Ts:
        if (!isNumber)
            fail("ts is not a number");
        else if (isNanOrInfinity(text))
            fail("ts is NaN or infinite");
        else if (!parseMicrosAsNanos(text, ev_.ts) || ev_.ts > kTimeLimitNs || ev_.ts < -kTimeLimitNs)
            fail("ts is out of range");
        else
            ev_.hasTs = true;
        break;
    case Field::Dur:
        if (!isNumber)
            fail("dur is not a number");
        else if (isNanOrInfinity(text))
            fail("dur is NaN or infinite");
        else if (!parseMicrosAsNanos(text, ev_.dur) || ev_.dur > kTimeLimitNs)
            fail("dur is out of range");
        else if (ev_.dur < 0)
            fail("negative duration");
        else
            ev_.hasDur = true;
        break;
    case Field::Id:
        ev_.hasId = (isNumber || isString) && parseInteger(text, ev_.id);
        break;
    default:
        break;
    }
    field_ = Field::None;
}

void KinetoTraceParser::eventArg(std::string_view text, bool isNumber, bool isString) {
    if (arg_ == Arg::None)
        return;
    if (arg_ == Arg::Kind || arg_ == Arg::CollectiveName || arg_ == Arg::Dtype || arg_ == Arg::GroupName ||
        arg_ == Arg::GroupDescription || arg_ == Arg::GroupRanks) {
        if (isString || (isNumber && arg_ == Arg::GroupName))
            eventStringArg(text);
        arg_ = Arg::None;
        return;
    }
    std::int64_t v = 0;
    if ((isNumber || isString) && parseInteger(text, v)) {
        auto i32 = [](std::int64_t x) {
            return static_cast<std::int32_t>(std::clamp<std::int64_t>(x, INT32_MIN, INT32_MAX));
        };
        switch (arg_) {
        case Arg::Device:
            ev_.device = v;
            break;
        case Arg::Stream:
            ev_.stream = v;
            break;
        case Arg::Correlation:
            ev_.correlation = v;
            break;
        case Arg::ExternalId:
            ev_.externalId = v;
            break;
        case Arg::Bytes:
            ev_.bytes = v;
            break;
        case Arg::Size:
            ev_.size = v;
            break;
        case Arg::Registers:
            ev_.registers = i32(v);
            break;
        case Arg::SharedMemory:
            ev_.sharedMemory = i32(v);
            break;
        case Arg::DynamicSharedMemory:
            ev_.dynamicSharedMemory = i32(v);
            break;
        case Arg::StaticSharedMemory:
            ev_.staticSharedMemory = i32(v);
            break;
        case Arg::DeviceType:
            ev_.deviceType = v;
            break;
        case Arg::DeviceId:
            ev_.deviceId = v;
            break;
        case Arg::TotalAllocated:
            ev_.totalAllocated = v;
            break;
        case Arg::TotalReserved:
            ev_.totalReserved = v;
            break;
        case Arg::InNelems:
            ev_.inNelems = v;
            break;
        case Arg::OutNelems:
            ev_.outNelems = v;
            break;
        case Arg::GroupSize:
            ev_.groupSize = v;
            break;
        default:
            break;
        }
    }
    arg_ = Arg::None;
}

void KinetoTraceParser::eventStringArg(std::string_view text) {
    switch (arg_) {
    case Arg::Kind:
        ev_.kind.assign(text.data(), text.size());
        break;
    case Arg::CollectiveName:
        ev_.collective.assign(text.data(), text.size());
        ev_.hasCollective = true;
        break;
    case Arg::Dtype:
        ev_.dtype.assign(text.data(), text.size());
        break;
    case Arg::GroupName:
        ev_.groupName.assign(text.data(), text.size());
        break;
    case Arg::GroupDescription:
        ev_.groupDescription.assign(text.data(), text.size());
        break;
    case Arg::GroupRanks:
        ev_.groupRanks.assign(text.data(), text.size());
        break;
    default:
        break;
    }
}

// ---- one event -----------------------------------------------------------------------------

void KinetoTraceParser::countUnread() {
    std::string cat = ev_.otherCat.empty() ? std::string("(no category)") : repairUtf8(ev_.otherCat);
    if (!unread_.contains(cat) && unread_.size() >= kMaxUnreadCategories)
        cat = "other";
    ++unread_[cat];
}

void KinetoTraceParser::warnIfOnlyUnread() {
    const TraceData& t = trace_;
    if (unread_.empty() || !t.kernels.empty() || !t.memcpys.empty() || !t.memsets.empty())
        return;
    std::vector<std::pair<std::string, std::int64_t>> kinds(unread_.begin(), unread_.end());
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::int64_t total = 0;
    std::string list;
    for (const auto& [cat, n] : kinds) {
        total += n;
        list += (list.empty() ? "" : ", ") + cat + " " + std::to_string(n);
    }
    trace_.info.importWarnings.push_back(
        path_ + ": no CUDA/ROCm GPU activity (kernels, copies, memsets); found and skipped " +
        std::to_string(total) + " complete event" + (total == 1 ? "" : "s") + " of other categories (" +
        list + "): only CUDA/ROCm GPU activity is analysed, so this run has no GPU figures");
}

void KinetoTraceParser::skip(std::int64_t offset, const char* reason) {
    SkipCounter(trace_.info.skipped).refuse(offset, reason);
}

StringId KinetoTraceParser::internName(const std::string& name) {
    if (isValidUtf8(name))
        return trace_.strings.intern(name);
    return trace_.strings.intern(repairUtf8(name));
}

// Dispatches one finished trace event: a memory sample, a flow end or a complete event; anything else
// (metadata, instants, other categories) has nothing in the schema. Bad events are skipped and counted.
void KinetoTraceParser::finishEvent() {
    ++eventsSeen_;
    const bool isFlow = (ev_.ph == 's' || ev_.ph == 'f') && ev_.cat == Cat::Ac2g;
    const bool isComplete = ev_.ph == 'X' && ev_.cat != Cat::Other && ev_.cat != Cat::Ac2g;
    // Memory instants of profile_memory=True; Device Type 1 = CUDA (0 = CPU, which has no track).
    const bool isMemory = (ev_.ph == 'i' || ev_.ph == 'I') && ev_.deviceType == 1 && ev_.name == "[memory]";
    if (ev_.ph == 'X' && ev_.cat == Cat::Other && ev_.otherCat != "Trace") // "Trace": Kineto's own span
        countUnread();
    if (!isFlow && !isComplete && !isMemory)
        return;
    if (ev_.problem) {
        skip(ev_.offset, ev_.problem);
        return;
    }
    if (!ev_.hasTs) {
        skip(ev_.offset, "event without ts");
        return;
    }
    if (isMemory)
        finishMemorySample();
    else if (isFlow)
        finishFlow();
    else
        finishComplete();
}

void KinetoTraceParser::finishMemorySample() {
    if (!anyTime_ || ev_.ts < minRawTime_)
        minRawTime_ = ev_.ts;
    anyTime_ = true;
    auto sample = [&](StringId& name, const char* text, std::int64_t value) {
        if (value < 0)
            return;
        if (name == 0)
            name = trace_.strings.intern(text);
        CounterSample c;
        c.ts = ev_.ts;
        c.value = static_cast<double>(value);
        c.device = static_cast<std::int32_t>(std::clamp<std::int64_t>(ev_.deviceId, 0, INT32_MAX));
        c.name = name;
        trace_.counters.push_back(c);
    };
    sample(allocatedName_, "GPU memory allocated", ev_.totalAllocated);
    sample(reservedName_, "GPU memory reserved", ev_.totalReserved);
}

void KinetoTraceParser::finishFlow() {
    if (!ev_.hasId) {
        skip(ev_.offset, "flow event without a numeric id");
        return;
    }
    (ev_.ph == 's' ? flowStarts_ : flowEnds_).push_back(FlowEnd{ev_.id, ev_.ts, ev_.tid});
}

void KinetoTraceParser::finishComplete() {
    if (!ev_.hasDur) {
        skip(ev_.offset, "complete event (ph X) without dur");
        return;
    }
    const Ns start = ev_.ts, end = ev_.ts + ev_.dur;
    if (!anyTime_ || start < minRawTime_)
        minRawTime_ = start;
    anyTime_ = true;
    const StringId name = internName(ev_.name);
    const auto i32 = [](std::int64_t x) {
        return static_cast<std::int32_t>(std::clamp<std::int64_t>(x, INT32_MIN, INT32_MAX));
    };
    // GPU events: Kineto puts the device in pid and the stream in tid, and repeats both in args.
    const GpuPlace gpu{i32(ev_.device >= 0 ? ev_.device : (ev_.pidNumeric && ev_.pid >= 0 ? ev_.pid : 0)),
                       ev_.stream >= 0 ? ev_.stream : (ev_.tidNumeric ? ev_.tid : 0)};
    switch (ev_.cat) {
    case Cat::Kernel:
        addKernel(start, end, name, gpu);
        break;
    case Cat::Memcpy:
        addMemcpy(start, end, name, gpu);
        break;
    case Cat::Memset:
        addMemset(start, end, name, gpu);
        break;
    case Cat::Runtime:
    case Cat::Driver:
        addApiCall(start, end, name);
        break;
    case Cat::CpuOp:
    case Cat::UserAnnotation:
    case Cat::PythonFunction:
        addCpuRange(start, end, name);
        break;
    case Cat::GpuUserAnnotation:
        addGpuAnnotation(start, end, name, gpu);
        break;
    default:
        break;
    }
}

template <class Event>
Event KinetoTraceParser::gpuActivity(Ns start, Ns end, StringId name, GpuPlace gpu) const {
    Event e;
    e.start = start;
    e.end = end;
    e.correlation = ev_.correlation;
    e.stream = gpu.stream;
    e.device = gpu.device;
    e.name = name;
    return e;
}

void KinetoTraceParser::addKernel(Ns start, Ns end, StringId name, GpuPlace gpu) {
    auto k = gpuActivity<KernelEvent>(start, end, name, gpu);
    std::copy(std::begin(ev_.grid), std::end(ev_.grid), k.grid);
    std::copy(std::begin(ev_.block), std::end(ev_.block), k.block);
    k.registers = ev_.registers;
    // Kineto reports one "shared memory" figure; it is kept as static unless the trace splits it.
    k.staticSmem = ev_.staticSharedMemory >= 0 ? ev_.staticSharedMemory : ev_.sharedMemory;
    k.dynamicSmem = ev_.dynamicSharedMemory >= 0 ? ev_.dynamicSharedMemory : 0;
    trace_.kernels.push_back(k);
    if (ev_.hasCollective)
        addCollectiveArgs(k);
}

// Values outside their bounds are kept as unknown (core/CollectiveArgs.h); names are interned, so bounded
// (core/NameBound.h). The rank is set with the kernels' in placeOnClock.
void KinetoTraceParser::addCollectiveArgs(const KernelEvent& k) {
    CollectiveArgs a;
    a.stream = k.stream;
    a.start = k.start;
    a.op = internName(ev_.collective);
    a.inNelems = collectiveNelems(ev_.inNelems);
    a.outNelems = collectiveNelems(ev_.outNelems);
    a.dtype = internName(ev_.dtype);
    a.dtypeBytes = collectiveDtypeBytes(ev_.dtype);
    a.groupSize = collectiveGroupSize(ev_.groupSize);
    a.groupName = internName(ev_.groupName);
    a.groupDescription = internName(ev_.groupDescription);
    a.groupRanks = internName(ev_.groupRanks);
    trace_.collectiveArgs.push_back(a);
}

void KinetoTraceParser::addMemcpy(Ns start, Ns end, StringId name, GpuPlace gpu) {
    auto m = gpuActivity<MemcpyEvent>(start, end, name, gpu);
    m.bytes = ev_.bytes; // -1 = not given; filled from the launching API call in finish()
    CopyNames::parseMemcpyName(ev_.name, m.kind, m.srcKind, m.dstKind);
    if (m.kind == MemcpyKind::Unknown && !ev_.kind.empty())
        m.kind = CopyNames::directionFromLabel(ev_.kind);
    trace_.memcpys.push_back(m);
}

void KinetoTraceParser::addMemset(Ns start, Ns end, StringId name, GpuPlace gpu) {
    auto m = gpuActivity<MemsetEvent>(start, end, name, gpu);
    m.bytes = std::max<std::int64_t>(ev_.bytes, 0);
    m.memKind = CopyNames::parseMemsetName(ev_.name);
    trace_.memsets.push_back(m);
}

void KinetoTraceParser::addApiCall(Ns start, Ns end, StringId name) {
    ApiCall a;
    a.start = start;
    a.end = end;
    a.correlation = ev_.correlation;
    a.pid = ev_.pid;
    a.tid = ev_.tid;
    a.kind = ev_.cat == Cat::Driver ? ApiKind::Driver : ApiKind::Runtime;
    a.name = name;
    trace_.apiCalls.push_back(a);
    if (ev_.size >= 0 && ev_.correlation != 0)
        apiSizes_.emplace_back(ev_.correlation, ev_.size);
    if (firstCpuPid_ < 0)
        firstCpuPid_ = ev_.pid;
}

void KinetoTraceParser::addCpuRange(Ns start, Ns end, StringId name) {
    CpuRange r;
    r.start = start;
    r.end = end;
    r.pid = ev_.pid;
    r.tid = ev_.tid;
    r.correlation = ev_.externalId;
    r.kind = ev_.cat == Cat::CpuOp            ? CpuRangeKind::CpuOp
             : ev_.cat == Cat::UserAnnotation ? CpuRangeKind::UserAnnotation
                                              : CpuRangeKind::PythonFunction;
    r.name = name;
    trace_.cpuRanges.push_back(r);
    if (firstCpuPid_ < 0)
        firstCpuPid_ = ev_.pid;
}

void KinetoTraceParser::addGpuAnnotation(Ns start, Ns end, StringId name, GpuPlace gpu) {
    GpuAnnotation g;
    g.start = start;
    g.end = end;
    g.stream = gpu.stream;
    g.device = gpu.device;
    g.name = name;
    trace_.gpuAnnotations.push_back(g);
}

// ---- after the document --------------------------------------------------------------------

TraceData KinetoTraceParser::finish() {
    if (!sawRootObject_)
        throw InputError(path_, "not a PyTorch-profiler trace (no JSON object)", 0);
    if (!sawTraceEvents_)
        throw InputError(path_, "not a PyTorch-profiler trace: no traceEvents array");
    const std::int32_t rank = hasRank_ ? static_cast<std::int32_t>(rank_) : 0;
    placeOnClock(rank);
    fillCopySizes();
    linkFlows(rank);
    flowStarts_ = {};
    flowEnds_ = {};
    TraceData& t = trace_;
    warnIfOnlyUnread();
    if (t.eventCount() == 0) {
        if (!t.info.importWarnings.empty())
            throw InputError(path_,
                             "nothing to ingest: " + t.info.importWarnings.front().substr(path_.size() + 2));
        if (t.info.skipped.count > 0)
            throw InputError(path_,
                             "no usable events: all " + std::to_string(t.info.skipped.count) +
                                 " trace events were malformed (first: " + t.info.skipped.firstReason + ")",
                             t.info.skipped.firstOffset);
        throw InputError(path_, "the trace holds no events (nothing to ingest)");
    }
    t.ranks = {rankAndRunInfo(rank)};
    return std::move(trace_);
}

// Relative timestamps (below the base) get the base added; absolute ones are kept as they are. Every
// event gets the trace's rank.
void KinetoTraceParser::placeOnClock(std::int32_t rank) {
    TraceData& t = trace_;
    const Ns offset = hasBase_ && anyTime_ && minRawTime_ < baseNs_ ? baseNs_ : 0;
    auto shift = [&](auto& v) {
        for (auto& e : v) {
            e.start += offset;
            e.end += offset;
            e.rank = rank;
        }
    };
    shift(t.kernels), shift(t.memcpys), shift(t.memsets), shift(t.apiCalls), shift(t.cpuRanges),
        shift(t.gpuAnnotations);
    for (auto& c : t.counters) {
        c.ts += offset;
        c.rank = rank;
    }
    for (auto& a : t.collectiveArgs) {
        a.start += offset;
        a.rank = rank;
    }
    for (auto* v : {&flowStarts_, &flowEnds_})
        for (auto& f : *v)
            f.ts += offset;
}

// Memcpy sizes missing from the GPU record (ROCm) come from the launching call's "size" arg; still
// unknown: 0.
void KinetoTraceParser::fillCopySizes() {
    TraceData& t = trace_;
    if (!apiSizes_.empty()) {
        std::sort(apiSizes_.begin(), apiSizes_.end());
        for (auto& m : t.memcpys) {
            if (m.bytes >= 0 || m.correlation == 0)
                continue;
            auto it = std::lower_bound(apiSizes_.begin(), apiSizes_.end(),
                                       std::make_pair(m.correlation, INT64_MIN));
            if (it != apiSizes_.end() && it->first == m.correlation)
                m.bytes = it->second;
        }
    }
    for (auto& m : t.memcpys)
        m.bytes = std::max<std::int64_t>(m.bytes, 0);
}

// ac2g flows: "s" is the launch (CPU side), "f" the GPU side, paired by id = the correlation id (a
// repeated id: the first launch, the first "f"); the GPU activity carrying the id gives the exact GPU
// start and stream (ROCm puts "f" on the CPU thread). Flows in ascending id order. O(n log n).
void KinetoTraceParser::linkFlows(std::int32_t rank) {
    TraceData& t = trace_;
    if (!flowStarts_.empty() && !flowEnds_.empty()) {
        FlowLinker linker; // one process: scope 0
        linker.reserve(flowStarts_.size(), 0);
        for (const auto& s : flowStarts_)
            linker.addLaunch(0, s.id, FlowLinker::Launch{s.ts, 0, s.tid, ApiKind::Runtime});
        flowStarts_ = {};                                            // the linker holds the launches now
        std::vector<std::tuple<std::int64_t, Ns, std::int64_t>> gpu; // (correlation, start, stream)
        gpu.reserve(t.kernels.size() + t.memcpys.size() + t.memsets.size());
        for (const auto& k : t.kernels)
            if (k.correlation != 0)
                gpu.emplace_back(k.correlation, k.start, k.stream);
        for (const auto& m : t.memcpys)
            if (m.correlation != 0)
                gpu.emplace_back(m.correlation, m.start, m.stream);
        for (const auto& m : t.memsets)
            if (m.correlation != 0)
                gpu.emplace_back(m.correlation, m.start, m.stream);
        std::sort(gpu.begin(), gpu.end());
        std::stable_sort(flowEnds_.begin(), flowEnds_.end(),
                         [](const FlowEnd& a, const FlowEnd& b) { return a.id < b.id; });
        for (std::size_t i = 0; i < flowEnds_.size(); ++i) {
            const auto& f = flowEnds_[i];
            if (i > 0 && flowEnds_[i - 1].id == f.id)
                continue;
            Ns gpuTs = f.ts;
            std::int64_t stream = f.tid;
            auto g = std::lower_bound(gpu.begin(), gpu.end(), std::make_tuple(f.id, INT64_MIN, INT64_MIN));
            if (g != gpu.end() && std::get<0>(*g) == f.id) {
                gpuTs = std::get<1>(*g);
                stream = std::get<2>(*g);
            }
            if (auto flow = linker.flowFor(0, rank, f.id, gpuTs, stream))
                t.flows.push_back(*flow);
        }
    }
}

// The rank's record (pid, source, GPU names by device) and the run's (format, world size, versions).
RankInfo KinetoTraceParser::rankAndRunInfo(std::int32_t rank) {
    TraceData& t = trace_;
    RankInfo ri;
    ri.rank = rank;
    ri.rankClaimed = hasRank_;
    ri.pid = firstCpuPid_ > 0 ? firstCpuPid_ : 0;
    ri.sourceFile = path_;
    std::set<std::int32_t> devicesSeen;
    for (const auto& k : t.kernels)
        devicesSeen.insert(k.device);
    for (const auto& m : t.memcpys)
        devicesSeen.insert(m.device);
    for (const auto& m : t.memsets)
        devicesSeen.insert(m.device);
    for (const auto& g : t.gpuAnnotations)
        devicesSeen.insert(g.device);
    for (const auto& c : t.counters)
        devicesSeen.insert(c.device);
    std::set<std::string> distinctNames;
    for (const auto& d : devices_)
        distinctNames.insert(d.name);
    for (auto dev : devicesSeen) {
        auto it =
            std::find_if(devices_.begin(), devices_.end(), [&](const DeviceName& d) { return d.id == dev; });
        if (it != devices_.end())
            ri.gpuNames.push_back(it->name);
        else if (distinctNames.size() == 1) // e.g. ROCm numbers devices differently from deviceProperties
            ri.gpuNames.push_back(*distinctNames.begin());
    }
    RunInfo& info = t.info;
    info.sourceFormat = "kineto";
    info.sourceFiles = {path_};
    info.worldSize = worldSize_ > 0 ? static_cast<std::int32_t>(worldSize_) : 1;
    for (const auto& g : ri.gpuNames)
        if (!g.empty() && std::find(info.gpuModels.begin(), info.gpuModels.end(), g) == info.gpuModels.end())
            info.gpuModels.push_back(g);
    info.driverVersion = driverVersion_;
    info.cudaVersion = runtimeVersion_;
    info.cuptiVersion = cuptiVersion_;
    return ri;
}

} // namespace cnp
