#include "launch/Backend.h"

#include "core/RapidJson.h"

namespace cnp::launch {

std::string jsonArgv(const std::vector<std::string>& argv) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartArray();
    for (const auto& a : argv)
        w.String(a.c_str(), static_cast<rapidjson::SizeType>(a.size()));
    w.EndArray();
    return buf.GetString();
}

} // namespace cnp::launch
