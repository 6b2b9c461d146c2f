#pragma once
// Pretty JSON writer shared by the analysis commands (stats, ablation, diff, insights). Keys and
// shapes are a contract documented in docs/cli.md. Integers stay integers (ns are never floats).
#include "core/RapidJson.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cnp::cli {

class JsonOutput {
public:
    JsonOutput();
    JsonOutput& key(std::string_view k);
    JsonOutput& str(std::string_view s);
    JsonOutput& num(std::int64_t v);
    JsonOutput& num(int v) { return num(static_cast<std::int64_t>(v)); }
    // Non-finite values are written as null.
    JsonOutput& real(double v);
    JsonOutput& real(std::optional<double> v);
    JsonOutput& boolean(bool b);
    JsonOutput& null();
    JsonOutput& beginObject();
    JsonOutput& endObject();
    JsonOutput& beginArray();
    JsonOutput& endArray();
    // The finished document (with a trailing newline).
    std::string text() const;

private:
    rapidjson::StringBuffer buf_;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w_;
};

} // namespace cnp::cli
