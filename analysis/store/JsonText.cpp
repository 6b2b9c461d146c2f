#include "store/JsonText.h"

#include "core/BoundedJson.h"
#include "core/RapidJson.h"

namespace cnp {

std::string jsonArrayText(const std::vector<std::string>& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartArray();
    for (const auto& s : v)
        w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
    w.EndArray();
    return buf.GetString();
}

std::string jsonObjectText(const std::vector<std::pair<std::string, std::string>>& kv) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    for (const auto& [k, v] : kv) {
        w.Key(k.c_str(), static_cast<rapidjson::SizeType>(k.size()));
        w.String(v.c_str(), static_cast<rapidjson::SizeType>(v.size()));
    }
    w.EndObject();
    return buf.GetString();
}

std::vector<std::string> parseJsonArrayText(const std::string& s) {
    std::vector<std::string> out;
    rapidjson::Document d;
    if (!parseBoundedJson(s, d).ok || !d.IsArray())
        return out;
    for (const auto& v : d.GetArray())
        if (v.IsString())
            out.emplace_back(v.GetString(), v.GetStringLength());
    return out;
}

std::vector<std::pair<std::string, std::string>> parseJsonObjectText(const std::string& s) {
    std::vector<std::pair<std::string, std::string>> out;
    rapidjson::Document d;
    if (!parseBoundedJson(s, d).ok || !d.IsObject())
        return out;
    // Const iterators: RapidJSON 1.1's mixed iterator != is ambiguous in C++20 (clang).
    const rapidjson::Value& root = d;
    for (const auto& m : root.GetObject())
        if (m.value.IsString())
            out.emplace_back(m.name.GetString(), m.value.GetString());
    return out;
}

} // namespace cnp
