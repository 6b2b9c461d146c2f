#pragma once
// The small synthetic study the what-if and prediction tests share: 2 nodes x 2 GPUs, 3 steps, 2 layers,
// seed 7 of the acs-llama3-8b study (docs/synth.md), generated under `dir`/study and ingested into `ws`,
// one run per configuration named after it.
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <QString>

#include <string>
#include <vector>

namespace cnp::testing {

inline void smallSynthStudy(const QString& dir, const QString& ws, const std::vector<std::string>& configs) {
    const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
    synth::StudyOptions o;
    o.outDir = (dir + "/study").toStdString();
    o.nodes = 2;
    o.gpusPerNode = 2;
    o.steps = 3;
    o.layers = 2;
    o.seed = 7;
    o.seedSet = true;
    o.configs = configs;
    const auto runs = synth::generateStudy(params, synth::resolveOptions(params, o));
    Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing);
    for (const auto& r : runs) {
        IngestRequest req;
        req.inputs = {r.folder};
        req.runName = r.config;
        req.config = r.config;
        ingest(w, req);
    }
}

} // namespace cnp::testing
