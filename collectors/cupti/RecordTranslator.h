#pragma once
// Turns CUPTI activity records (the struct versions of the CUDA 13 headers: Kernel10, Memcpy6,
// MemcpyPtoP4, Memset4, API, Synchronization2, Memory4, Overhead3, Marker2, MarkerData2, Device5,
// Context3, Name) into .cnpt records. Needs only the CUPTI headers, not the library, so tests feed it
// structs they build themselves. O(1) per record plus string interning (O(name length)).
#include "CnptWriter.h"

#include <cupti.h>

#include <cstdint>
#include <unordered_map>

namespace cnp::collector {

struct TranslatorStats {
    std::uint64_t kernels = 0, memcpys = 0, memsets = 0, apis = 0, syncs = 0, memory = 0, overheads = 0;
    std::uint64_t markers = 0, markerData = 0, devices = 0, contexts = 0, names = 0, ignored = 0;
    std::uint64_t total() const {
        return kernels + memcpys + memsets + apis + syncs + memory + overheads + markers + markerData +
               devices + contexts + names;
    }
};

class RecordTranslator {
public:
    // Name of a runtime (driver == false) or driver API by callback id; nullptr when unknown.
    // The collector passes a wrapper of cuptiGetCallbackName; tests pass a table.
    using ApiNameFn = const char* (*)(bool driver, std::uint32_t cbid);

    RecordTranslator(cnpt::CnptWriter& writer, ApiNameFn apiName) : writer_(writer), apiName_(apiName) {}

    // Appends the .cnpt form of `record` to the writer. Unknown kinds are counted in stats().ignored.
    void translate(const CUpti_Activity* record);
    const TranslatorStats& stats() const { return stats_; }

private:
    // One handler per CUPTI activity kind: the record as the struct of its kind, appended to the writer.
    void addKernel(const CUpti_Activity* record);
    void addMemcpy(const CUpti_Activity* record);
    void addPeerMemcpy(const CUpti_Activity* record);
    void addMemset(const CUpti_Activity* record);
    void addApi(const CUpti_Activity* record);
    void addSynchronization(const CUpti_Activity* record);
    void addMemory(const CUpti_Activity* record);
    void addOverhead(const CUpti_Activity* record);
    void addMarker(const CUpti_Activity* record);
    void addMarkerData(const CUpti_Activity* record);
    void addDevice(const CUpti_Activity* record);
    void addContext(const CUpti_Activity* record);
    void addName(const CUpti_Activity* record);
    std::uint32_t apiNameId(bool driver, std::uint32_t cbid);
    std::uint32_t intern(const char* s) { return s ? writer_.intern(s) : 0; }

    cnpt::CnptWriter& writer_;
    ApiNameFn apiName_;
    std::unordered_map<std::uint64_t, std::uint32_t> apiNames_; // (driver << 32 | cbid) -> string id
    TranslatorStats stats_;
};

} // namespace cnp::collector
