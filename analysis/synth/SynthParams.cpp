#include "synth/SynthParams.h"

#include "core/InputError.h"
#include "core/ResourceDir.h"

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace cnp::synth {
namespace {

Ns microseconds(double us) {
    return static_cast<Ns>(std::llround(us * 1000.0));
}

// Typed access to one YAML map with errors that name the file and the key path.
class Node {
public:
    // YAML::Node has no move constructor: n is copied (a handle: O(1)).
    Node(const YAML::Node& n, std::string path, const std::string& file)
        : n_(n), path_(std::move(path)), file_(file) {}

    Node child(const std::string& key) const {
        if (!n_.IsMap() || !n_[key])
            throw InputError(file_, "missing key '" + join(key) + "'");
        return Node(n_[key], join(key), file_);
    }
    bool has(const std::string& key) const { return n_.IsMap() && n_[key]; }

    template <class T> T as() const {
        try {
            return n_.as<T>();
        } catch (const YAML::Exception&) {
            throw InputError(file_, "key '" + path_ + "' has the wrong type");
        }
    }
    template <class T> T get(const std::string& key) const { return child(key).as<T>(); }
    double positive(const std::string& key) const { return checked(key, get<double>(key), 0, false); }
    double nonNegative(const std::string& key) const { return checked(key, get<double>(key), 0, true); }
    double fraction(const std::string& key) const {
        const double v = nonNegative(key);
        if (v > 1)
            throw InputError(file_, "key '" + join(key) + "' must lie in [0, 1]");
        return v;
    }

    std::vector<Node> items() const {
        if (!n_.IsSequence() || n_.size() == 0)
            throw InputError(file_, "key '" + path_ + "' must be a non-empty list");
        std::vector<Node> out;
        for (std::size_t i = 0; i < n_.size(); ++i)
            out.emplace_back(n_[i], path_ + "[" + std::to_string(i) + "]", file_);
        return out;
    }

private:
    std::string join(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
    double checked(const std::string& key, double v, double min, bool inclusive) const {
        if (!std::isfinite(v) || v < min || (!inclusive && v == min))
            throw InputError(file_, "key '" + join(key) + "' must be " + (inclusive ? ">= 0" : "> 0"));
        return v;
    }

    YAML::Node n_;
    std::string path_;
    const std::string& file_;
};

KernelKind kindFrom(const Node& n, const std::string& file) {
    const auto s = n.get<std::string>("kind");
    if (s == "gemm")
        return KernelKind::Gemm;
    if (s == "attention")
        return KernelKind::Attention;
    if (s == "elementwise")
        return KernelKind::Elementwise;
    if (s == "fused")
        return KernelKind::Fused;
    throw InputError(file, "unknown kernel kind '" + s + "' (gemm, attention, elementwise, fused)");
}

std::vector<KernelSpec> kernelList(const Node& list, const std::string& file) {
    std::vector<KernelSpec> out;
    for (const auto& k : list.items())
        out.push_back({k.get<std::string>("name"), kindFrom(k, file), microseconds(k.positive("us"))});
    return out;
}

// Overlays the keys `n` sets on `c` (the previous configuration's values).
void overlayConfig(ConfigSpec& c, const Node& n) {
    c.name = n.get<std::string>("name");
    if (n.has("collective_speed"))
        c.collectiveSpeed = n.positive("collective_speed");
    if (n.has("prefetch_layers"))
        c.prefetchLayers = static_cast<int>(n.positive("prefetch_layers"));
    if (n.has("launch_api_us"))
        c.launchApiNs = microseconds(n.nonNegative("launch_api_us"));
    if (n.has("launch_latency_us"))
        c.launchLatencyNs = microseconds(n.nonNegative("launch_latency_us"));
    if (n.has("host_overhead_us"))
        c.hostOverheadNs = microseconds(n.nonNegative("host_overhead_us"));
    if (n.has("host_sync_per_layer"))
        c.hostSyncPerLayer = n.get<bool>("host_sync_per_layer");
    if (n.has("cpu_stall_probability"))
        c.cpuStallProbability = n.fraction("cpu_stall_probability");
    if (n.has("cpu_stall_us"))
        c.cpuStallNs = microseconds(n.nonNegative("cpu_stall_us"));
    if (n.has("fused"))
        c.fused = n.get<bool>("fused");
    if (n.has("recompute_fraction"))
        c.recomputeFraction = n.fraction("recompute_fraction");
}

void readModel(SynthParams& p, const Node& m) {
    p.model.layers = static_cast<int>(m.positive("layers"));
    p.model.hidden = m.positive("hidden");
    p.model.kvDim = m.positive("kv_dim");
    p.model.ffn = m.positive("ffn");
    p.model.vocab = m.positive("vocab");
    p.model.seq = m.positive("seq");
    p.model.tokensPerGpu = m.positive("tokens_per_gpu");
}

void readRun(SynthParams& p, const Node& r) {
    p.defaults.nodes = static_cast<int>(r.positive("nodes"));
    p.defaults.gpusPerNode = static_cast<int>(r.positive("gpus_per_node"));
    p.defaults.steps = static_cast<int>(r.positive("steps"));
    p.defaults.repeats = static_cast<int>(r.positive("repeats"));
    p.defaults.seed = r.get<std::uint64_t>("seed");
    p.clock.startRealtimeNs = r.get<Ns>("start_realtime_ns");
    p.clock.cuptiEpochOffsetNs = r.get<Ns>("cupti_epoch_offset_ns");
    p.clock.nodeSpreadNs = static_cast<Ns>(r.nonNegative("node_clock_spread_ns"));
    p.clock.rankSpreadNs = static_cast<Ns>(r.nonNegative("rank_clock_spread_ns"));
    p.clock.pairBracketNs = static_cast<Ns>(r.nonNegative("clock_pair_bracket_ns"));
}

void readCollectivesAndOptimizer(SynthParams& p, const Node& c, const Node& o) {
    p.collectives.allGatherName = c.child("all_gather").get<std::string>("name");
    p.collectives.allGatherNs = microseconds(c.child("all_gather").positive("us"));
    p.collectives.reduceScatterName = c.child("reduce_scatter").get<std::string>("name");
    p.collectives.reduceScatterNs = microseconds(c.child("reduce_scatter").positive("us"));
    p.collectives.intraNodeSpeedup = c.positive("intra_node_speedup");
    p.collectives.jitter = c.fraction("jitter");
    const Node adam = o.child("adam"), norm = o.child("grad_norm");
    p.optimizer.adamName = adam.get<std::string>("name");
    p.optimizer.adamKernelsPerLayer = static_cast<int>(adam.positive("kernels_per_layer"));
    p.optimizer.adamTotalNs16 = microseconds(adam.positive("us_total_16gpu"));
    p.optimizer.normName = norm.get<std::string>("name");
    p.optimizer.normKernelsPerLayer = static_cast<int>(norm.positive("kernels_per_layer"));
    p.optimizer.normNs = microseconds(norm.positive("us"));
}

void readHost(SynthParams& p, const Node& h) {
    p.host.dataLoadingNs = microseconds(h.nonNegative("data_loading_us"));
    p.host.dataLoadingJitter = h.fraction("data_loading_jitter");
    p.host.batchBytes = static_cast<std::int64_t>(h.positive("batch_bytes"));
    p.host.gpuSpeedSpread = h.fraction("gpu_speed_spread");
    p.host.kernelJitter = h.fraction("kernel_jitter");
    p.host.stragglerProbability = h.fraction("straggler_probability");
    p.host.stragglerSlowdown = h.positive("straggler_slowdown");
}

} // namespace

double ModelShape::flopsPerToken(int layerCount) const {
    const double layerParams = hidden * (hidden + 2 * kvDim) + hidden * hidden + 3 * hidden * ffn;
    return 6 * (layerParams * layerCount + vocab * hidden) + 12 * layerCount * hidden * seq;
}

std::string SynthParams::studyPath(const std::string& study) {
    return resourceDir() + "/synth/" + study + ".yaml";
}

SynthParams SynthParams::fromFile(const std::string& path) {
    YAML::Node doc;
    try {
        doc = YAML::LoadFile(path);
    } catch (const YAML::BadFile&) {
        throw InputError(path, "cannot open the study file");
    } catch (const YAML::Exception& e) {
        throw InputError(path, "not valid YAML: " + e.msg);
    }
    const Node root(doc, "", path);
    SynthParams p;
    p.sourcePath = path;
    p.study = root.get<std::string>("study");
    readModel(p, root.child("model"));
    const Node hw = root.child("hardware");
    p.gpuName = hw.get<std::string>("gpu_name");
    p.peakFlops = hw.positive("peak_flops");
    p.gpuMemoryBytes = hw.get<std::uint64_t>("gpu_memory_bytes");
    readRun(p, root.child("run"));
    const Node layer = root.child("layer"), head = root.child("head");
    p.forward = kernelList(layer.child("forward"), path);
    p.forwardFused = kernelList(layer.child("forward_fused"), path);
    p.backward = kernelList(layer.child("backward"), path);
    p.backwardFused = kernelList(layer.child("backward_fused"), path);
    p.headForward = kernelList(head.child("forward"), path);
    p.headBackward = kernelList(head.child("backward"), path);
    readCollectivesAndOptimizer(p, root.child("collectives"), root.child("optimizer"));
    readHost(p, root.child("host"));
    ConfigSpec current;
    for (const auto& c : root.child("configs").items()) {
        overlayConfig(current, c);
        for (const auto& earlier : p.configs)
            if (earlier.name == current.name)
                throw InputError(path, "configuration '" + current.name + "' appears twice");
        p.configs.push_back(current);
    }
    return p;
}

const ConfigSpec& SynthParams::config(const std::string& name) const {
    for (const auto& c : configs)
        if (c.name == name)
            return c;
    throw InputError(sourcePath, "no configuration '" + name + "' in study '" + study + "'");
}

} // namespace cnp::synth
