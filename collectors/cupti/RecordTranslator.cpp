#include "RecordTranslator.h"

#include <cstring>
#include <string>

namespace cnp::collector {

using namespace cnpt;

namespace {

// The fields every GPU-side activity (kernel, memcpy, memset) carries under the same CUPTI names.
template <class Activity, class Record> void copyGpuSpan(const Activity& a, Record& r) {
    r.start = a.start;
    r.end = a.end;
    r.correlation = a.correlationId;
    r.device = a.deviceId;
    r.context = a.contextId;
    r.stream = a.streamId;
}

// A memcpy's fields shared by the device-local (MEMCPY) and the peer-to-peer (MEMCPY2) records.
template <class Activity> void copyMemcpy(const Activity& m, MemcpyRecord& r) {
    copyGpuSpan(m, r);
    r.bytes = m.bytes;
    r.copyKind = m.copyKind;
    r.srcKind = m.srcKind;
    r.dstKind = m.dstKind;
    r.flags = m.flags;
}

} // namespace

std::uint32_t RecordTranslator::apiNameId(bool driver, std::uint32_t cbid) {
    const std::uint64_t key = (static_cast<std::uint64_t>(driver) << 32) | cbid;
    auto it = apiNames_.find(key);
    if (it != apiNames_.end())
        return it->second;
    const char* name = apiName_ ? apiName_(driver, cbid) : nullptr;
    std::string text =
        name ? std::string(name) : (driver ? "driver_api_" : "runtime_api_") + std::to_string(cbid);
    // CUPTI names runtime APIs with their version, "cudaLaunchKernel_v7000": keep the name users know.
    const auto v = text.rfind("_v");
    if (name && v != std::string::npos && v > 0 && v + 2 < text.size() &&
        text.find_first_not_of("0123456789", v + 2) == std::string::npos)
        text.resize(v);
    const std::uint32_t id = writer_.intern(text);
    apiNames_.emplace(key, id);
    return id;
}

// One record -> its handler; the handlers copy the fields the .cnpt record keeps (CnptRecords.h).
void RecordTranslator::translate(const CUpti_Activity* record) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return addKernel(record);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return addMemcpy(record);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return addPeerMemcpy(record);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return addMemset(record);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return addApi(record);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return addSynchronization(record);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return addMemory(record);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        return addOverhead(record);
    case CUPTI_ACTIVITY_KIND_MARKER:
        return addMarker(record);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        return addMarkerData(record);
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return addDevice(record);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
        return addContext(record);
    case CUPTI_ACTIVITY_KIND_NAME:
        return addName(record);
    default:
        ++stats_.ignored;
        return;
    }
}

void RecordTranslator::addKernel(const CUpti_Activity* record) {
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    KernelRecord r{};
    copyGpuSpan(*k, r);
    r.graphNodeId = k->graphNodeId;
    r.gridId = k->gridId;
    r.grid[0] = k->gridX;
    r.grid[1] = k->gridY;
    r.grid[2] = k->gridZ;
    r.block[0] = k->blockX;
    r.block[1] = k->blockY;
    r.block[2] = k->blockZ;
    r.staticSmem = k->staticSharedMemory;
    r.dynamicSmem = k->dynamicSharedMemory;
    r.registers = k->registersPerThread;
    r.name = intern(k->name);
    r.graphId = k->graphId;
    r.launchType = k->launchType;
    r.deviceLaunched = k->isDeviceLaunched;
    writer_.add(RecordType::Kernel, r);
    ++stats_.kernels;
}

void RecordTranslator::addMemcpy(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
    MemcpyRecord r{};
    copyMemcpy(*m, r);
    r.srcDevice = r.dstDevice = m->deviceId;
    writer_.add(RecordType::Memcpy, r);
    ++stats_.memcpys;
}

void RecordTranslator::addPeerMemcpy(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record);
    MemcpyRecord r{};
    copyMemcpy(*m, r);
    r.srcDevice = m->srcDeviceId;
    r.dstDevice = m->dstDeviceId;
    r.peer = 1;
    writer_.add(RecordType::Memcpy, r);
    ++stats_.memcpys;
}

void RecordTranslator::addMemset(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
    MemsetRecord r{};
    copyGpuSpan(*m, r);
    r.bytes = m->bytes;
    r.value = m->value;
    r.memoryKind = m->memoryKind;
    r.flags = m->flags;
    writer_.add(RecordType::Memset, r);
    ++stats_.memsets;
}

void RecordTranslator::addApi(const CUpti_Activity* record) {
    const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
    const bool driver = record->kind == CUPTI_ACTIVITY_KIND_DRIVER;
    ApiRecord r{};
    r.start = a->start;
    r.end = a->end;
    r.correlation = a->correlationId;
    r.pid = a->processId;
    r.tid = a->threadId;
    r.cbid = a->cbid;
    r.returnValue = a->returnValue;
    r.name = apiNameId(driver, a->cbid);
    r.domain = driver ? ApiDomain::Driver : ApiDomain::Runtime;
    writer_.add(RecordType::Api, r);
    ++stats_.apis;
}

void RecordTranslator::addSynchronization(const CUpti_Activity* record) {
    const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(record);
    SynchronizationRecord r{};
    r.start = s->start;
    r.end = s->end;
    r.correlation = s->correlationId;
    r.context = s->contextId;
    r.stream = s->streamId;
    r.cudaEventId = s->cudaEventId;
    r.type = static_cast<std::uint32_t>(s->type);
    writer_.add(RecordType::Synchronization, r);
    ++stats_.syncs;
}

void RecordTranslator::addMemory(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(record);
    MemoryRecord r{};
    r.timestamp = m->timestamp;
    r.address = m->address;
    r.bytes = m->bytes;
    r.correlation = m->correlationId;
    r.pid = m->processId;
    r.device = m->deviceId;
    r.context = m->contextId;
    r.stream = m->streamId;
    r.operation = static_cast<std::uint32_t>(m->memoryOperationType);
    r.memoryKind = static_cast<std::uint32_t>(m->memoryKind);
    r.name = intern(m->name);
    r.isAsync = static_cast<std::uint8_t>(m->isAsync);
    writer_.add(RecordType::Memory, r);
    ++stats_.memory;
}

void RecordTranslator::addOverhead(const CUpti_Activity* record) {
    const auto* o = reinterpret_cast<const CUpti_ActivityOverhead3*>(record);
    OverheadRecord r{};
    r.start = o->start;
    r.end = o->end;
    r.overheadKind = static_cast<std::uint32_t>(o->overheadKind);
    r.objectKind = static_cast<std::uint32_t>(o->objectKind);
    if (o->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS || o->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
        r.objectA = o->objectId.pt.processId;
        r.objectB = o->objectId.pt.threadId;
    } else {
        r.objectA = o->objectId.dcs.deviceId;
        r.objectB = o->objectId.dcs.contextId;
    }
    r.correlation = o->correlationId;
    writer_.add(RecordType::Overhead, r);
    ++stats_.overheads;
}

void RecordTranslator::addMarker(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(record);
    MarkerRecord r{};
    r.timestamp = m->timestamp;
    r.id = m->id;
    r.flags = static_cast<std::uint32_t>(m->flags);
    if (m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS || m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
        r.pid = m->objectId.pt.processId;
        r.tid = m->objectId.pt.threadId;
    }
    r.name = intern(m->name);
    r.domain = intern(m->domain);
    writer_.add(RecordType::Marker, r);
    ++stats_.markers;
}

void RecordTranslator::addMarkerData(const CUpti_Activity* record) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMarkerData2*>(record);
    MarkerDataRecord r{};
    std::memcpy(&r.payload, &m->payload,
                sizeof r.payload < sizeof m->payload ? sizeof r.payload : sizeof m->payload);
    r.id = m->id;
    r.flags = static_cast<std::uint32_t>(m->flags);
    r.color = m->color;
    r.category = m->category;
    r.payloadKind = static_cast<std::uint32_t>(m->payloadKind);
    writer_.add(RecordType::MarkerData, r);
    ++stats_.markerData;
}

void RecordTranslator::addDevice(const CUpti_Activity* record) {
    const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(record);
    DeviceRecord r{};
    r.globalMemoryBytes = d->globalMemorySize;
    r.id = d->id;
    r.name = intern(d->name);
    std::memcpy(r.uuid, &d->uuid, sizeof r.uuid);
    r.ccMajor = d->computeCapabilityMajor;
    r.ccMinor = d->computeCapabilityMinor;
    r.multiprocessors = d->numMultiprocessors;
    writer_.add(RecordType::Device, r);
    ++stats_.devices;
}

void RecordTranslator::addContext(const CUpti_Activity* record) {
    const auto* c = reinterpret_cast<const CUpti_ActivityContext3*>(record);
    ContextRecord r{};
    r.context = c->contextId;
    r.device = c->deviceId;
    r.nullStream = c->nullStreamId;
    writer_.add(RecordType::Context, r);
    ++stats_.contexts;
}

void RecordTranslator::addName(const CUpti_Activity* record) {
    const auto* n = reinterpret_cast<const CUpti_ActivityName*>(record);
    NameRecord r{};
    r.objectKind = static_cast<std::uint32_t>(n->objectKind);
    if (n->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS || n->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD) {
        r.a = n->objectId.pt.processId;
        r.b = n->objectId.pt.threadId;
    } else {
        r.a = n->objectId.dcs.deviceId;
        r.b = n->objectId.dcs.contextId;
        r.c = n->objectId.dcs.streamId;
    }
    r.name = intern(n->name);
    writer_.add(RecordType::Name, r);
    ++stats_.names;
}

} // namespace cnp::collector
