#include "metrics/ClockAlignmentText.h"

#include "core/RapidJson.h"

#include <cmath>

namespace cnp {

namespace {

constexpr std::int64_t kMaxAbsNs = std::int64_t(1) << 62; // far beyond any sane time difference
constexpr double kMaxAbsPpm = 1e9;

using Object = rapidjson::Value::ConstObject;

bool readNs(const Object& o, const char* key, Ns& out) {
    const auto it = o.FindMember(key);
    if (it == o.MemberEnd() || !it->value.IsInt64())
        return false;
    out = it->value.GetInt64();
    return out >= -kMaxAbsNs && out <= kMaxAbsNs;
}

bool readString(const Object& o, const char* key, std::string& out) {
    const auto it = o.FindMember(key);
    if (it == o.MemberEnd() || !it->value.IsString())
        return false;
    out.assign(it->value.GetString(), it->value.GetStringLength());
    return true;
}

std::optional<HostClockEstimate> hostFrom(const rapidjson::Value& v) {
    if (!v.IsObject())
        return std::nullopt;
    const Object o = v.GetObject();
    HostClockEstimate h;
    Ns ranks = 0;
    const auto drift = o.FindMember("drift_ppm");
    if (!readString(o, "host", h.host) || !readNs(o, "ranks", ranks) || !readNs(o, "calls", h.calls) ||
        !readNs(o, "offset_ns", h.offsetNs) || !readNs(o, "residual_ns", h.residualNs) ||
        !readNs(o, "max_abs_difference_ns", h.maxAbsDifferenceNs) || drift == o.MemberEnd() ||
        !drift->value.IsNumber())
        return std::nullopt;
    h.driftPpm = drift->value.GetDouble();
    if (ranks < 0 || ranks > INT32_MAX || h.calls < 0 || h.residualNs < 0 || h.maxAbsDifferenceNs < 0 ||
        !(std::abs(h.driftPpm) <= kMaxAbsPpm))
        return std::nullopt;
    h.ranks = static_cast<std::int32_t>(ranks);
    return h;
}

} // namespace

std::string clockAlignmentToText(const ClockAlignment& a) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("reference_host");
    w.String(a.referenceHost.data(), static_cast<rapidjson::SizeType>(a.referenceHost.size()));
    w.Key("t0_ns");
    w.Int64(a.t0);
    w.Key("stored_error_ns");
    w.Int64(a.storedErrorNs);
    w.Key("fitted_error_ns");
    w.Int64(a.fittedErrorNs);
    w.Key("hosts");
    w.StartArray();
    for (const auto& h : a.hosts) {
        w.StartObject();
        w.Key("host");
        w.String(h.host.data(), static_cast<rapidjson::SizeType>(h.host.size()));
        w.Key("ranks");
        w.Int64(h.ranks);
        w.Key("calls");
        w.Int64(h.calls);
        w.Key("offset_ns");
        w.Int64(h.offsetNs);
        w.Key("drift_ppm");
        w.Double(std::isfinite(h.driftPpm) ? h.driftPpm : 0.0);
        w.Key("residual_ns");
        w.Int64(h.residualNs);
        w.Key("max_abs_difference_ns");
        w.Int64(h.maxAbsDifferenceNs);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return {buffer.GetString(), buffer.GetSize()};
}

std::optional<ClockAlignment> clockAlignmentFromText(std::string_view text) {
    if (text.size() > kMaxStoredBytes)
        return std::nullopt;
    rapidjson::Document d;
    d.Parse<rapidjson::kParseIterativeFlag>(text.data(), text.size());
    if (d.HasParseError() || !d.IsObject())
        return std::nullopt;
    const rapidjson::Value& root = d;
    const Object o = root.GetObject();
    ClockAlignment a;
    const auto hosts = o.FindMember("hosts");
    if (!readString(o, "reference_host", a.referenceHost) || !readNs(o, "t0_ns", a.t0) ||
        !readNs(o, "stored_error_ns", a.storedErrorNs) || !readNs(o, "fitted_error_ns", a.fittedErrorNs) ||
        a.storedErrorNs < 0 || a.fittedErrorNs < 0 || hosts == o.MemberEnd() || !hosts->value.IsArray() ||
        hosts->value.Size() > kMaxStoredHosts)
        return std::nullopt;
    for (const auto& v : hosts->value.GetArray()) {
        auto h = hostFrom(v);
        if (!h)
            return std::nullopt;
        a.hosts.push_back(std::move(*h));
    }
    return a;
}

} // namespace cnp
