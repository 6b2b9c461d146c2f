#include "launch/RunProgress.h"

#include "core/RapidJson.h"

namespace cnp::launch {

const char* stateName(JobState s) {
    switch (s) {
    case JobState::Pending:
        return "pending";
    case JobState::Starting:
        return "starting";
    case JobState::Running:
        return "running";
    case JobState::Collecting:
        return "collecting";
    case JobState::Ingesting:
        return "ingesting";
    case JobState::Done:
        return "done";
    case JobState::Failed:
        return "failed";
    case JobState::Skipped:
        return "skipped";
    case JobState::Cancelled:
        return "cancelled";
    case JobState::Detached:
        return "detached";
    }
    return "failed";
}

bool isFinal(JobState s) {
    return s == JobState::Done || s == JobState::Failed || s == JobState::Skipped ||
           s == JobState::Cancelled || s == JobState::Detached;
}

void RunSummary::count(JobState s) {
    done += s == JobState::Done;
    failed += s == JobState::Failed;
    skipped += s == JobState::Skipped;
    cancelled += s == JobState::Cancelled;
    detached += s == JobState::Detached;
}

std::string toJsonLine(const ProgressEvent& e) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("type");
    w.String("run");
    w.Key("config");
    w.String(e.config.c_str(), static_cast<rapidjson::SizeType>(e.config.size()));
    w.Key("repeat");
    w.Int(e.repeat);
    w.Key("rank");
    if (e.rank)
        w.Int(*e.rank);
    else
        w.Null();
    w.Key("state");
    w.String(stateName(e.state));
    w.Key("message");
    w.String(e.message.c_str(), static_cast<rapidjson::SizeType>(e.message.size()));
    w.EndObject();
    return buf.GetString();
}

std::string toJsonLine(const RunSummary& s) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("type");
    w.String("summary");
    const std::pair<const char*, int> counts[] = {{"done", s.done},
                                                  {"failed", s.failed},
                                                  {"skipped", s.skipped},
                                                  {"cancelled", s.cancelled},
                                                  {"detached", s.detached}};
    for (const auto& [k, v] : counts) {
        w.Key(k);
        w.Int(v);
    }
    w.EndObject();
    return buf.GetString();
}

std::string toHumanLine(const ProgressEvent& e) {
    std::string line = e.config + " r" + std::to_string(e.repeat);
    if (e.rank)
        line += " rank " + std::to_string(*e.rank);
    line += ": ";
    line += stateName(e.state);
    if (!e.message.empty())
        line += " (" + e.message + ")";
    return line;
}

} // namespace cnp::launch
