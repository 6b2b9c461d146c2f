#include "history/ReleaseSummaryJson.h"

#include "core/InputError.h"
#include "history/HistoryFile.h"

#include <cmath>

namespace cnp {

namespace {

constexpr int kFormatVersion = 1;
constexpr rapidjson::SizeType kMaxConfigs = 256, kMaxRuns = 1024, kMaxCategories = 256;
constexpr std::size_t kMaxText = 1024;
constexpr std::size_t kMaxKernelName = 4096; // demangled template names run to a few kB

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void str(Writer& w, const std::string& s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

void nsArray(Writer& w, const std::vector<Ns>& v) {
    w.StartArray();
    for (Ns x : v)
        w.Int64(x);
    w.EndArray();
}

void writeConfig(Writer& w, const ConfigReleaseSummary& c) {
    w.StartObject();
    w.Key("config");
    str(w, c.config);
    w.Key("worldSize");
    w.Int(c.worldSize);
    w.Key("runs");
    w.StartArray();
    for (const auto& r : c.runs)
        str(w, r);
    w.EndArray();
    w.Key("medianStepNs");
    w.Int64(c.medianStepNs);
    w.Key("hasCi");
    w.Bool(c.hasCi);
    w.Key("ciLoNs");
    w.Int64(c.ciLoNs);
    w.Key("ciHiNs");
    w.Int64(c.ciHiNs);
    w.Key("throughput");
    w.Double(c.throughput);
    w.Key("throughputCiLo");
    w.Double(c.throughputCiLo);
    w.Key("throughputCiHi");
    w.Double(c.throughputCiHi);
    w.Key("throughputUnit");
    str(w, c.throughputUnit);
    w.Key("mfu");
    if (c.mfu)
        w.Double(*c.mfu);
    else
        w.Null();
    w.Key("categories");
    w.StartArray();
    for (const auto& cat : c.categories)
        str(w, cat);
    w.EndArray();
    w.Key("stepTimesByRun");
    w.StartArray();
    for (const auto& run : c.stepTimesByRun)
        nsArray(w, run);
    w.EndArray();
    w.Key("categorySteps");
    w.StartArray();
    for (const auto& cat : c.categorySteps) {
        w.StartArray();
        for (const auto& run : cat)
            nsArray(w, run);
        w.EndArray();
    }
    w.EndArray();
    w.Key("kernels");
    w.StartArray();
    for (const auto& k : c.kernels) {
        w.StartObject();
        w.Key("name");
        str(w, k.name);
        w.Key("nsPerStep");
        w.Double(k.nsPerStep);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

// Reads the members of one document, throwing InputError naming the file and the place.
class Reader {
public:
    explicit Reader(const std::string& path) : path_(path) {}

    [[noreturn]] void fail(const std::string& where, const std::string& cause) const {
        throw InputError(path_, "not a release summary: " + where + ": " + cause);
    }
    const rapidjson::Value& member(const rapidjson::Value& v, const char* key,
                                   const std::string& where) const {
        if (!v.IsObject() || !v.HasMember(key))
            fail(where, std::string("no \"") + key + "\"");
        return v[key];
    }
    std::string text(const rapidjson::Value& v, const char* key, const std::string& where) const {
        const auto& m = member(v, key, where);
        if (!m.IsString() || m.GetStringLength() > kMaxText)
            fail(where, std::string("\"") + key + "\" is not a string of at most 1024 bytes");
        return {m.GetString(), m.GetStringLength()};
    }
    double number(const rapidjson::Value& v, const char* key, const std::string& where) const {
        const auto& m = member(v, key, where);
        if (!m.IsNumber() || !std::isfinite(m.GetDouble()) || m.GetDouble() < 0)
            fail(where, std::string("\"") + key + "\" is not a finite non-negative number");
        return m.GetDouble();
    }
    Ns ns(const rapidjson::Value& m, const std::string& where) const {
        if (!m.IsInt64() || m.GetInt64() < 0)
            fail(where, "a time is not a non-negative integer of ns");
        return m.GetInt64();
    }
    const rapidjson::Value& array(const rapidjson::Value& m, rapidjson::SizeType maxSize,
                                  const std::string& where) const {
        if (!m.IsArray())
            fail(where, "not an array");
        if (m.Size() > maxSize)
            fail(where, "more than " + std::to_string(maxSize) + " elements");
        return m;
    }
    std::vector<Ns> nsArray(const rapidjson::Value& m, const std::string& where) const {
        const auto& a = array(m, static_cast<rapidjson::SizeType>(kMaxSummaryStepsPerRun), where);
        std::vector<Ns> out;
        out.reserve(a.Size());
        for (rapidjson::SizeType i = 0; i < a.Size(); ++i)
            out.push_back(ns(a[i], where));
        return out;
    }
    ConfigReleaseSummary config(const rapidjson::Value& v, const std::string& where) const;
    std::vector<ReleaseKernel> kernels(const rapidjson::Value& v, const std::string& where) const;

private:
    std::string path_;
};

ConfigReleaseSummary Reader::config(const rapidjson::Value& v, const std::string& at) const {
    ConfigReleaseSummary c;
    c.config = text(v, "config", at);
    const std::string where = at + " (" + c.config + ")";
    const auto& world = member(v, "worldSize", where);
    if (!world.IsInt() || world.GetInt() < 1)
        fail(where, "\"worldSize\" is not a positive integer");
    c.worldSize = world.GetInt();
    const auto& runs = array(member(v, "runs", where), kMaxRuns, where + " runs");
    for (rapidjson::SizeType i = 0; i < runs.Size(); ++i) {
        if (!runs[i].IsString() || runs[i].GetStringLength() > kMaxText)
            fail(where, "a run name is not a string of at most 1024 bytes");
        c.runs.emplace_back(runs[i].GetString(), runs[i].GetStringLength());
    }
    c.medianStepNs = ns(member(v, "medianStepNs", where), where + " medianStepNs");
    const auto& hasCi = member(v, "hasCi", where);
    if (!hasCi.IsBool())
        fail(where, "\"hasCi\" is not a boolean");
    c.hasCi = hasCi.GetBool();
    c.ciLoNs = ns(member(v, "ciLoNs", where), where + " ciLoNs");
    c.ciHiNs = ns(member(v, "ciHiNs", where), where + " ciHiNs");
    c.throughput = number(v, "throughput", where);
    c.throughputCiLo = number(v, "throughputCiLo", where);
    c.throughputCiHi = number(v, "throughputCiHi", where);
    c.throughputUnit = text(v, "throughputUnit", where);
    const auto& mfu = member(v, "mfu", where);
    if (!mfu.IsNull()) {
        if (!mfu.IsNumber() || !std::isfinite(mfu.GetDouble()) || mfu.GetDouble() < 0)
            fail(where, "\"mfu\" is neither null nor a finite non-negative number");
        c.mfu = mfu.GetDouble();
    }
    const auto& cats = array(member(v, "categories", where), kMaxCategories, where + " categories");
    for (rapidjson::SizeType i = 0; i < cats.Size(); ++i) {
        if (!cats[i].IsString() || cats[i].GetStringLength() > kMaxText)
            fail(where, "a category is not a string of at most 1024 bytes");
        c.categories.emplace_back(cats[i].GetString(), cats[i].GetStringLength());
    }
    const auto& steps = array(member(v, "stepTimesByRun", where), kMaxRuns, where + " stepTimesByRun");
    for (rapidjson::SizeType i = 0; i < steps.Size(); ++i)
        c.stepTimesByRun.push_back(nsArray(steps[i], where + " stepTimesByRun"));
    const auto& catSteps = array(member(v, "categorySteps", where), kMaxCategories, where + " categorySteps");
    if (catSteps.Size() != c.categories.size())
        fail(where, "\"categorySteps\" does not hold one array per category");
    for (rapidjson::SizeType k = 0; k < catSteps.Size(); ++k) {
        const auto& perRun = array(catSteps[k], kMaxRuns, where + " categorySteps");
        if (perRun.Size() != c.stepTimesByRun.size())
            fail(where, "\"categorySteps\" of " + c.categories[k] + " does not hold one array per run");
        auto& cat = c.categorySteps.emplace_back();
        for (rapidjson::SizeType r = 0; r < perRun.Size(); ++r) {
            cat.push_back(nsArray(perRun[r], where + " categorySteps"));
            if (cat.back().size() != c.stepTimesByRun[r].size())
                fail(where, "\"categorySteps\" of " + c.categories[k] + " does not hold one value per step");
        }
    }
    c.kernels = kernels(v, where);
    return c;
}

// "kernels" is optional (summaries written before it have none): at most kMaxSummaryKernels of
// {"name": at most kMaxKernelName bytes, "nsPerStep": finite, non-negative}.
std::vector<ReleaseKernel> Reader::kernels(const rapidjson::Value& v, const std::string& where) const {
    std::vector<ReleaseKernel> out;
    if (!v.HasMember("kernels"))
        return out;
    const auto& a =
        array(v["kernels"], static_cast<rapidjson::SizeType>(kMaxSummaryKernels), where + " kernels");
    for (rapidjson::SizeType i = 0; i < a.Size(); ++i) {
        const auto& name = member(a[i], "name", where + " kernels");
        if (!name.IsString() || name.GetStringLength() > kMaxKernelName)
            fail(where + " kernels", "a kernel name is not a string of at most 4096 bytes");
        out.push_back(
            {{name.GetString(), name.GetStringLength()}, number(a[i], "nsPerStep", where + " kernels")});
    }
    return out;
}

} // namespace

std::string releaseSummaryToJson(const ReleaseSummary& s) {
    rapidjson::StringBuffer buf;
    Writer w(buf);
    w.StartObject();
    w.Key("format");
    w.String("cnp-release-summary");
    w.Key("version");
    w.Int(kFormatVersion);
    w.Key("synthetic");
    w.Bool(s.synthetic);
    w.Key("driver");
    str(w, s.driverVersion);
    w.Key("cuda");
    str(w, s.cudaVersion);
    w.Key("image");
    str(w, s.containerImage);
    w.Key("configs");
    w.StartArray();
    for (const auto& c : s.configs)
        writeConfig(w, c);
    w.EndArray();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

ReleaseSummary releaseSummaryFromJson(const std::string& text, const std::string& path) {
    rapidjson::Document doc;
    HistoryFile::parse(text, path, "release summary", "cnp-release-summary", kFormatVersion, doc);
    const Reader r(path);
    ReleaseSummary s;
    const auto& synthetic = r.member(doc, "synthetic", "document");
    if (!synthetic.IsBool())
        r.fail("document", "\"synthetic\" is not a boolean");
    s.synthetic = synthetic.GetBool();
    s.driverVersion = r.text(doc, "driver", "document");
    s.cudaVersion = r.text(doc, "cuda", "document");
    s.containerImage = r.text(doc, "image", "document");
    const auto& configs = r.array(r.member(doc, "configs", "document"), kMaxConfigs, "configs");
    for (rapidjson::SizeType i = 0; i < configs.Size(); ++i) {
        ConfigReleaseSummary c = r.config(configs[i], "configuration " + std::to_string(i + 1));
        if (s.config(c.config))
            r.fail("configs", "configuration " + c.config + " appears twice");
        s.configs.push_back(std::move(c));
    }
    return s;
}

ReleaseSummary readReleaseSummary(const std::string& path) {
    return releaseSummaryFromJson(HistoryFile::read(path, kMaxSummaryBytes, "release summary"), path);
}

void writeReleaseSummary(const ReleaseSummary& summary, const std::string& path) {
    HistoryFile::writeAtomically(path, releaseSummaryToJson(summary), "release summary");
}

} // namespace cnp
