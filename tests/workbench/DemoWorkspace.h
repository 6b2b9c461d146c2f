#pragma once
// Test helper (not a test): builds the demo workspace — the real H200 ablation in resources/demo
// (base, ckpt, compile, compile_ckpt; batch 4 x seq 2048 = 8192 tokens per step) — with cnp::ingest()
// into a temporary directory. Plan order = the order of kDemoConfigs.
#include "TestPaths.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <string>

namespace cnp::wbtest {

inline const QStringList kDemoConfigs = {QStringLiteral("base"), QStringLiteral("ckpt"),
                                         QStringLiteral("compile"), QStringLiteral("compile_ckpt")};

inline QString demoTracePath(const QString& config) {
    return (testpaths::sourceDir() + QStringLiteral("/resources/demo/demo_%1.json.gz")).arg(config);
}

// Creates `dir`/demo.cnpdb holding the first `count` demo configurations (one run each, named like the
// configuration). Returns the workspace path.
inline QString buildDemoWorkspace(const QTemporaryDir& dir, int count = 4) {
    const QString path = dir.filePath(QStringLiteral("demo.cnpdb"));
    Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
    std::vector<std::string> order;
    for (int i = 0; i < count; ++i) {
        IngestRequest r;
        r.inputs = {demoTracePath(kDemoConfigs[i]).toStdString()};
        r.runName = kDemoConfigs[i].toStdString();
        r.config = kDemoConfigs[i].toStdString();
        r.tokensPerStep = 8192;
        ingest(ws, r);
        order.push_back(r.config);
    }
    ws.setPlanOrder(order);
    return path;
}

// The synthetic study's configuration names (scripts/demo, docs/synth.md), long cumulative ones.
inline const QStringList kStudyConfigs = {QStringLiteral("Base"), QStringLiteral("Base+ACCL"),
                                          QStringLiteral("AC2+ACCL"), QStringLiteral("AC2+ACCL+CompilerOpt"),
                                          QStringLiteral("AC2+ACCL+CompilerOpt+CkptOpt")};

// Creates `dir`/study.cnpdb: one run per name of kStudyConfigs (plan order), the demo traces reused in
// turn (base, ckpt, compile, compile_ckpt, compile), each run named as `cnp synth` names them
// ("<configuration>-r0"). For the layout of long configuration and run names. Returns the workspace path.
inline QString buildStudyWorkspace(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("study.cnpdb"));
    Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
    std::vector<std::string> order;
    for (int i = 0; i < kStudyConfigs.size(); ++i) {
        IngestRequest r;
        r.inputs = {demoTracePath(kDemoConfigs[i < 4 ? i : 2]).toStdString()};
        r.runName = kStudyConfigs[i].toStdString() + "-r0";
        r.config = kStudyConfigs[i].toStdString();
        r.tokensPerStep = 8192;
        ingest(ws, r);
        order.push_back(r.config);
    }
    ws.setPlanOrder(order);
    return path;
}

// Creates `dir`/many.cnpdb: `count` configurations named "config 1".."config N" in plan order, one run
// each, the demo traces reused in turn (similar step times, so their value labels meet at one height).
// For charts crowded with categories, as the bundled demo's nine. Returns the workspace path.
inline QString buildManyConfigWorkspace(const QTemporaryDir& dir, int count) {
    const QString path = dir.filePath(QStringLiteral("many.cnpdb"));
    Workspace ws(path.toStdString(), Workspace::Mode::CreateIfMissing);
    std::vector<std::string> order;
    for (int i = 0; i < count; ++i) {
        IngestRequest r;
        r.inputs = {demoTracePath(kDemoConfigs[i % kDemoConfigs.size()]).toStdString()};
        r.runName = "run" + std::to_string(i + 1);
        r.config = "config " + std::to_string(i + 1);
        r.tokensPerStep = 8192;
        ingest(ws, r);
        order.push_back(r.config);
    }
    ws.setPlanOrder(order);
    return path;
}

} // namespace cnp::wbtest
