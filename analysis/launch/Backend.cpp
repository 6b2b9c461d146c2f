#include "launch/Backend.h"

#include "core/InputError.h"
#include "core/RapidJson.h"

namespace cnp::launch {

void requireOneNode(const JobSpec& job, const std::string& backend) {
    if (job.nodes > 1)
        throw InputError(job.planPath, "configuration '" + job.config + "': the plan asks for " +
                                           std::to_string(job.nodes) + " nodes, but the " + backend +
                                           " backend runs one node (this machine); set resources.nodes: 1, "
                                           "or run it with --backend kubernetes");
}

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
