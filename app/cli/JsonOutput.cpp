#include "JsonOutput.h"

#include <cmath>

namespace cnp::cli {

JsonOutput::JsonOutput() : w_(buf_) {
    w_.SetIndent(' ', 2);
}

JsonOutput& JsonOutput::key(std::string_view k) {
    w_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()), true);
    return *this;
}
JsonOutput& JsonOutput::str(std::string_view s) {
    w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()), true);
    return *this;
}
JsonOutput& JsonOutput::num(std::int64_t v) {
    w_.Int64(v);
    return *this;
}
JsonOutput& JsonOutput::real(double v) {
    if (std::isfinite(v))
        w_.Double(v);
    else
        w_.Null();
    return *this;
}
JsonOutput& JsonOutput::real(std::optional<double> v) {
    return v ? real(*v) : null();
}
JsonOutput& JsonOutput::boolean(bool b) {
    w_.Bool(b);
    return *this;
}
JsonOutput& JsonOutput::null() {
    w_.Null();
    return *this;
}
JsonOutput& JsonOutput::beginObject() {
    w_.StartObject();
    return *this;
}
JsonOutput& JsonOutput::endObject() {
    w_.EndObject();
    return *this;
}
JsonOutput& JsonOutput::beginArray() {
    w_.StartArray();
    return *this;
}
JsonOutput& JsonOutput::endArray() {
    w_.EndArray();
    return *this;
}
std::string JsonOutput::text() const {
    return std::string(buf_.GetString(), buf_.GetSize()) + "\n";
}

} // namespace cnp::cli
