#include "metrics/CategoryRules.h"

#include "core/BoundedJson.h"
#include "core/InputError.h"
#include "core/ResourceDir.h"
#include "core/WorkspaceSettings.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cnp {

namespace {

const std::vector<CategoryRule>& builtinRules() {
    static const std::vector<CategoryRule> rules = {
        {"communication", "nccl|rccl|accl|msccl|nvshmem|hccl"},
        {"attention", "flash|fmha|attention|sdpa|\\bmha_(fwd|bwd)"},
        // MIOpen's normalisation/pooling kernels before its convolutions (ROCm).
        {"elementwise/reduction", "^MIOpen(BatchNorm|Softmax|Pooling|Neuron|LRN|LayerNorm)|^mloPooling"},
        {"convolution", "miopen|naive_conv|igemm_(fwd|bwd|wrw)|gridwise_convolution|implicit_convolve|conv("
                        "olution)?_?(fwd|bwd|wrw)"},
        // rocBLAS / hipBLASLt GEMMs are Tensile kernels named Cijk_<layout>_...
        {"gemm", "gemm|cutlass|cublas|xmma|nvjet|wgmma|matmul|^Cijk_|tensile|rocblas|hipblaslt"},
        {"optimizer", "multi_tensor_apply|adam|sgd"},
        {"triton-fused", "^triton_"},
        {"elementwise/reduction", "elementwise|vectorized|reduce|unrolled"},
    };
    return rules;
}

// Recomputed forward work (activation checkpointing) in ranges the workload names so: "recompute",
// "recomputation", "Recompute forward"... docs/metrics.md says why torch's CheckpointFunctionBackward is not
// one (it also encloses the segment's backward).
const std::vector<CategoryRule>& builtinRangeRules() {
    static const std::vector<CategoryRule> rules = {{"recompute", "recomput"}};
    return rules;
}

const std::vector<std::string>& builtinPriority() {
    static const std::vector<std::string> p = {"recompute",   "gemm",         "attention",
                                               "convolution", "triton-fused", "elementwise/reduction",
                                               "optimizer",   "other"};
    return p;
}

// At most 80 bytes of a pattern for a message (a rule file may hold a megabyte-long pattern).
std::string excerpt(const std::string& pattern) {
    constexpr std::size_t kMax = 80;
    return pattern.size() <= kMax ? pattern : pattern.substr(0, kMax) + "...";
}

} // namespace

CategoryRules::CategoryRules()
    : rules_(builtinRules()), rangeRules_(builtinRangeRules()), priority_(builtinPriority()) {
    compile("built-in rules");
}

std::vector<NameRegex> CategoryRules::compileRules(const std::vector<CategoryRule>& rules,
                                                   const std::string& kind, const std::string& sourceName) {
    std::vector<NameRegex> compiled;
    compiled.reserve(rules.size());
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const CategoryRule& r = rules[i];
        const std::string rule = kind + " " + std::to_string(i + 1) + " (category '" + r.category + "')";
        if (r.category.empty())
            throw InputError(sourceName, kind + " " + std::to_string(i + 1) + " has an empty category");
        if (r.category == kMemoryCategory || r.category == kIdleCategory)
            throw InputError(sourceName, rule + ": category '" + r.category + "' is reserved");
        NameRegex re(r.pattern, NameRegex::Case::Insensitive);
        if (!re.valid())
            throw InputError(sourceName,
                             rule + ": invalid regex '" + excerpt(r.pattern) + "': " + re.error());
        compiled.push_back(std::move(re));
    }
    return compiled;
}

void CategoryRules::compile(const std::string& sourceName) {
    compiled_ = compileRules(rules_, "rule", sourceName);
    rangeCompiled_ = compileRules(rangeRules_, "range rule", sourceName);
}

CategoryRules CategoryRules::fromJson(std::string_view json, const std::string& sourceName) {
    rapidjson::Document doc;
    if (const auto parsed = parseBoundedJson(json, doc); !parsed.ok)
        throw InputError(sourceName, "not valid JSON: " + parsed.error,
                         static_cast<std::int64_t>(parsed.offset));
    if (!doc.IsObject() || !doc.HasMember("rules") || !doc["rules"].IsArray())
        throw InputError(sourceName, "expected an object with a \"rules\" array");
    CategoryRules out;
    auto readRules = [&](const char* key, const char* noun, std::vector<CategoryRule>& into) {
        into.clear();
        if (!doc.HasMember(key))
            return;
        if (!doc[key].IsArray())
            throw InputError(sourceName, std::string("\"") + key + "\" must be an array of rules");
        for (const auto& r : doc[key].GetArray()) {
            if (!r.IsObject() || !r.HasMember("category") || !r["category"].IsString() ||
                !r.HasMember("pattern") || !r["pattern"].IsString())
                throw InputError(sourceName, std::string("every ") + noun +
                                                 " needs string fields \"category\" and \"pattern\"");
            into.push_back({r["category"].GetString(), r["pattern"].GetString()});
        }
    };
    readRules("rules", "rule", out.rules_);
    readRules("range_rules", "range rule", out.rangeRules_);
    if (doc.HasMember("fallback")) {
        if (!doc["fallback"].IsString() || doc["fallback"].GetStringLength() == 0)
            throw InputError(sourceName, "\"fallback\" must be a non-empty string");
        out.fallback_ = doc["fallback"].GetString();
    }
    out.priority_.clear();
    if (doc.HasMember("exclusive_priority")) {
        if (!doc["exclusive_priority"].IsArray())
            throw InputError(sourceName, "\"exclusive_priority\" must be an array of strings");
        for (const auto& p : doc["exclusive_priority"].GetArray()) {
            if (!p.IsString())
                throw InputError(sourceName, "\"exclusive_priority\" must be an array of strings");
            out.priority_.emplace_back(p.GetString());
        }
    } else {
        // Keep the default order for the categories these rules can produce; computePriority() appends the
        // rest.
        for (const auto& p : builtinPriority()) {
            auto produces = [&](const std::vector<CategoryRule>& rules) {
                return std::any_of(rules.begin(), rules.end(),
                                   [&](const CategoryRule& r) { return r.category == p; });
            };
            const bool used = p == out.fallback_ || produces(out.rules_) || produces(out.rangeRules_);
            if (used)
                out.priority_.push_back(p);
        }
    }
    out.compile(sourceName);
    return out;
}

CategoryRules CategoryRules::fromFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open rule file");
    std::stringstream ss;
    ss << in.rdbuf();
    return fromJson(ss.str(), path);
}

CategoryRules CategoryRules::forSettings(const WorkspaceSettings& settings) {
    if (const auto& m = settings.categoryRules; m && !m->empty())
        return fromJson(*m, settings.path + " (meta category_rules)");
    const std::string file = resourceDir() + "/rules/categories.json";
    if (std::ifstream(file).good())
        return fromFile(file);
    return CategoryRules();
}

std::string CategoryRules::toJson() const {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("version");
    w.Int(1);
    w.Key("rules");
    w.StartArray();
    for (const auto& r : rules_) {
        w.StartObject();
        w.Key("category");
        w.String(r.category.c_str(), static_cast<rapidjson::SizeType>(r.category.size()));
        w.Key("pattern");
        w.String(r.pattern.c_str(), static_cast<rapidjson::SizeType>(r.pattern.size()));
        w.EndObject();
    }
    w.EndArray();
    w.Key("range_rules");
    w.StartArray();
    for (const auto& r : rangeRules_) {
        w.StartObject();
        w.Key("category");
        w.String(r.category.c_str(), static_cast<rapidjson::SizeType>(r.category.size()));
        w.Key("pattern");
        w.String(r.pattern.c_str(), static_cast<rapidjson::SizeType>(r.pattern.size()));
        w.EndObject();
    }
    w.EndArray();
    w.Key("fallback");
    w.String(fallback_.c_str(), static_cast<rapidjson::SizeType>(fallback_.size()));
    w.Key("exclusive_priority");
    w.StartArray();
    for (const auto& p : priority_)
        w.String(p.c_str(), static_cast<rapidjson::SizeType>(p.size()));
    w.EndArray();
    w.EndObject();
    return buf.GetString();
}

std::string CategoryRules::classify(std::string_view kernelName) const {
    for (std::size_t i = 0; i < compiled_.size(); ++i)
        if (compiled_[i].search(kernelName))
            return rules_[i].category;
    return fallback_;
}

int CategoryRules::rangeRuleIndex(std::string_view rangeName) const {
    for (std::size_t i = 0; i < rangeCompiled_.size(); ++i)
        if (rangeCompiled_[i].search(rangeName))
            return static_cast<int>(i);
    return -1;
}

std::vector<std::string> CategoryRules::computePriority() const {
    std::vector<std::string> out;
    auto add = [&](const std::string& c) {
        if (c == kCommunicationCategory || c == kMemoryCategory || c == kIdleCategory)
            return;
        if (std::find(out.begin(), out.end(), c) == out.end())
            out.push_back(c);
    };
    for (const auto& p : priority_)
        add(p);
    const bool fallbackListed = std::find(priority_.begin(), priority_.end(), fallback_) != priority_.end();
    for (const auto& r : rangeRules_)
        add(r.category);
    for (const auto& r : rules_)
        if (r.category != fallback_ || fallbackListed)
            add(r.category);
    add(fallback_);
    return out;
}

} // namespace cnp
