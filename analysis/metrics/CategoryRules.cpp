#include "metrics/CategoryRules.h"

#include "core/BoundedFile.h"
#include "core/BoundedJson.h"
#include "core/InputError.h"
#include "core/ResourceDir.h"
#include "core/WorkspaceSettings.h"
#include "metrics/Breakdown.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <fstream>

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

// At most 80 bytes of a pattern or category for a message (a rule file may hold a megabyte-long one).
std::string excerpt(const std::string& pattern) {
    constexpr std::size_t kMax = 80;
    return pattern.size() <= kMax ? pattern : pattern.substr(0, kMax) + "...";
}

// At most 200 bytes of a regex engine's error (RE2 quotes the offending part of the pattern, which once
// made a 10 MB message line).
std::string boundedError(const std::string& error) {
    constexpr std::size_t kMax = 200;
    return error.size() <= kMax ? error
                                : error.substr(0, kMax) + "... (" + std::to_string(error.size()) + " bytes)";
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
        const std::string rule =
            kind + " " + std::to_string(i + 1) + " (category '" + excerpt(r.category) + "')";
        if (r.category.empty())
            throw InputError(sourceName, kind + " " + std::to_string(i + 1) + " has an empty category");
        if (r.category == kMemoryCategory || r.category == kIdleCategory)
            throw InputError(sourceName, rule + ": category '" + excerpt(r.category) + "' is reserved");
        NameRegex re(r.pattern, NameRegex::Case::Insensitive);
        if (!re.valid())
            throw InputError(sourceName, rule + ": invalid regex '" + excerpt(r.pattern) +
                                             "': " + boundedError(re.error()));
        compiled.push_back(std::move(re));
    }
    return compiled;
}

void CategoryRules::compile(const std::string& sourceName) {
    compiled_ = compileRules(rules_, "rule", sourceName);
    rangeCompiled_ = compileRules(rangeRules_, "range rule", sourceName);
}

CategoryRules CategoryRules::fromJson(std::string_view json, const std::string& sourceName) {
    if (json.size() > kMaxDocumentBytes)
        throw InputError(sourceName, "rule document of " + std::to_string(json.size()) +
                                         " bytes; category rules are at most " +
                                         std::to_string(kMaxDocumentBytes) + " bytes (1 MiB)");
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
            if (out.rules_.size() + out.rangeRules_.size() >= kMaxRules)
                throw InputError(sourceName, "more than " + std::to_string(kMaxRules) +
                                                 " rules and range rules; category rules hold at most " +
                                                 std::to_string(kMaxRules));
            if (!r.IsObject() || !r.HasMember("category") || !r["category"].IsString() ||
                !r.HasMember("pattern") || !r["pattern"].IsString())
                throw InputError(sourceName, std::string("every ") + noun +
                                                 " needs string fields \"category\" and \"pattern\"");
            into.push_back({r["category"].GetString(), r["pattern"].GetString()});
        }
    };
    out.rules_.clear(); // the built-in ones
    out.rangeRules_.clear();
    readRules("rules", "rule", out.rules_);
    readRules("range_rules", "range rule", out.rangeRules_);
    if (doc.HasMember("fallback")) {
        if (!doc["fallback"].IsString() || doc["fallback"].GetStringLength() == 0)
            throw InputError(sourceName, "\"fallback\" must be a non-empty string");
        out.fallback_ = doc["fallback"].GetString();
        if (out.fallback_ == kMemoryCategory || out.fallback_ == kIdleCategory) // once a raw SQL UNIQUE error
            throw InputError(sourceName, "\"fallback\" '" + out.fallback_ +
                                             "' is reserved (memory copies and idle time have their own "
                                             "categories); choose another name, such as \"other\"");
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
    if (const std::size_t n = out.computePriority().size(); n > RankTimeline::kMaxComputeCategories)
        throw InputError(sourceName, "the rules name " + std::to_string(n) +
                                         " kernel categories (communication and memory not counted, the "
                                         "fallback '" +
                                         excerpt(out.fallback_) + "' counted); at most " +
                                         std::to_string(RankTimeline::kMaxComputeCategories) +
                                         " are supported");
    return out;
}

CategoryRules CategoryRules::fromFile(const std::string& path) {
    return fromJson(readBoundedFile(path, kMaxDocumentBytes, "rule file"), path);
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
