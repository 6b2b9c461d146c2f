// The synthetic study generator (analysis/synth, docs/synth.md): determinism, clock alignment through the
// real ingest, and the configuration effects the study file documents, measured by the ablation.
#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "metrics/MultiRankSteps.h"
#include "requests/AblationRequest.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <limits>
#include <set>

using namespace cnp;
using namespace cnp::synth;

namespace {

const SynthParams& study() {
    static const SynthParams p = SynthParams::fromFile(SynthParams::studyPath("acs-llama3-8b"));
    return p;
}

// 2 nodes x `gpus` GPUs, few steps: small enough for a unit test, multi-node for the collectives.
StudyOptions smallStudy(const QString& out, std::uint64_t seed, std::vector<std::string> configs, int steps,
                        int layers, int gpus = 2) {
    StudyOptions o;
    o.outDir = out.toStdString();
    o.nodes = 2;
    o.gpusPerNode = gpus;
    o.steps = steps;
    o.layers = layers;
    o.seed = seed;
    o.seedSet = true;
    o.configs = std::move(configs);
    return resolveOptions(study(), o);
}

IngestRequest request(const std::string& folder, const std::string& name, const std::string& config) {
    IngestRequest r;
    r.inputs = {folder};
    r.runName = name;
    r.config = config;
    return r;
}

// SHA-256 of every file under `dir`, by relative path.
QMap<QString, QByteArray> digests(const QString& dir) {
    QMap<QString, QByteArray> out;
    QDir root(dir);
    for (const auto& sub : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        for (const auto& f : QDir(root.filePath(sub)).entryList(QDir::Files)) {
            QFile file(root.filePath(sub + "/" + f));
            if (file.open(QIODevice::ReadOnly))
                out[sub + "/" + f] = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
        }
    return out;
}

const AblationConfig& configNamed(const AblationResult& r, const std::string& name) {
    for (const auto& c : r.configs)
        if (c.config == name)
            return c;
    throw std::runtime_error("no configuration " + name);
}

// The category with the most negative attribution (the largest saving) against the previous configuration.
std::string largestSaving(const AblationConfig& c) {
    const auto& a = *c.attributionVsPreviousNs;
    return std::min_element(a.begin(), a.end(),
                            [](const auto& x, const auto& y) { return x.second < y.second; })
        ->first;
}

Ns attributed(const AblationConfig& c, const std::string& category) {
    for (const auto& [k, v] : *c.attributionVsPreviousNs)
        if (k == category)
            return v;
    return 0;
}

} // namespace

class TestSynth : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    std::unique_ptr<Workspace> ablationWs;
    AblationResult ablation;

private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        // The whole five-configuration chain on 2 x 4 ranks with the model's 32 layers, 6 steps (the first
        // dropped as warm-up). Eight ranks: the optimizer's shard is small enough to be launch-bound.
        const auto o = smallStudy(tmp.filePath("study"), 7, {}, 6, 0, 4);
        const auto runs = generateStudy(study(), o);
        QCOMPARE(runs.size(), std::size_t(5));
        ablationWs = std::make_unique<Workspace>(tmp.filePath("study.cnpdb").toStdString(),
                                                 Workspace::Mode::CreateIfMissing);
        for (const auto& r : runs)
            ingest(*ablationWs, request(r.folder, r.name, r.config));
        AblationOptions ao;
        ao.order = o.configs;
        ao.skipFirstSteps = 1;
        ablation = computeAblation(*ablationWs, ao);
    }

    void determinism_data() {
        QTest::addColumn<quint64>("seedA");
        QTest::addColumn<quint64>("seedB");
        QTest::addColumn<bool>("identical");
        QTest::newRow("same seed") << quint64(11) << quint64(11) << true;
        QTest::newRow("other seed") << quint64(11) << quint64(12) << false;
    }
    void determinism() {
        QFETCH(quint64, seedA);
        QFETCH(quint64, seedB);
        QFETCH(bool, identical);
        const QString a = tmp.filePath(QStringLiteral("det-%1-%2-a").arg(seedA).arg(seedB));
        const QString b = tmp.filePath(QStringLiteral("det-%1-%2-b").arg(seedA).arg(seedB));
        generateStudy(study(), smallStudy(a, seedA, {"Base"}, 2, 2));
        generateStudy(study(), smallStudy(b, seedB, {"Base"}, 2, 2));
        const auto da = digests(a), db = digests(b);
        QCOMPARE(da.size(), 8); // one trace per rank, each with its checksum file (CnptWriter::close)
        QCOMPARE(da.keys(), db.keys());
        for (const auto& k : da.keys())
            QCOMPARE(da[k] == db[k], identical);
    }

    // Every rank's file carries its own clock offset; after ingest the collectives, which end at one
    // instant on the true clock, end together again (within the clock-pair bracket).
    void clockAlignment() {
        const auto o = smallStudy(tmp.filePath("clock"), 3, {"Base"}, 2, 2);
        const auto runs = generateStudy(study(), o);
        Workspace ws(tmp.filePath("clock.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        const auto res = ingest(ws, request(runs[0].folder, "clock", "Base"));
        QCOMPARE(res.ranks, 4);
        const auto run = ws.runs().front();
        QVERIFY(run.info.synthetic);
        QCOMPARE(run.info.tokensPerStep, 4 * 8192.0);
        QVERIFY(run.info.flopsPerStep > 0);
        std::vector<Ns> ends, offsets;
        for (const auto& file : expandInputs({runs[0].folder})) {
            const TraceData t = importFile(file);
            offsets.push_back(t.ranks.front().clockOffsetNs);
            Ns firstGatherEnd = std::numeric_limits<Ns>::max();
            for (const auto& k : t.kernels)
                if (t.strings.at(k.name).rfind("ncclDevKernel_AllGather", 0) == 0)
                    firstGatherEnd = std::min(firstGatherEnd, k.end);
            ends.push_back(firstGatherEnd);
        }
        QCOMPARE(ends.size(), std::size_t(4));
        QVERIFY(std::set<Ns>(offsets.begin(), offsets.end()).size() == 4); // every rank its own clock
        const auto [lo, hi] = std::minmax_element(ends.begin(), ends.end());
        QVERIFY2(*hi - *lo <= study().clock.pairBracketNs, qPrintable(QString::number(*hi - *lo)));
    }

    // Plan order and the documented effects (docs/synth.md, "What each configuration changes"):
    // every configuration is faster than the previous one, with the named cause.
    void configurationEffects_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<double>("minGain");
        QTest::addColumn<double>("maxGain");
        QTest::addColumn<QString>("saving");
        QTest::addColumn<bool>("significant");
        QTest::newRow("ACCL") << "Base+ACCL" << 1.08 << 1.30 << "communication" << true;
        QTest::newRow("AC2") << "AC2+ACCL" << 1.0 << 1.05 << "idle" << false;
        QTest::newRow("CompilerOpt") << "AC2+ACCL+CompilerOpt" << 1.12 << 1.30 << "elementwise/reduction"
                                     << true;
        QTest::newRow("CkptOpt") << "AC2+ACCL+CompilerOpt+CkptOpt" << 1.10 << 1.35 << "recompute" << true;
    }
    void configurationEffects() {
        QFETCH(QString, config);
        QFETCH(double, minGain);
        QFETCH(double, maxGain);
        QFETCH(QString, saving);
        QFETCH(bool, significant);
        const auto& c = configNamed(ablation, config.toStdString());
        QVERIFY(c.gainVsPrevious.has_value());
        const double gain = c.gainVsPrevious->value;
        QVERIFY2(gain >= minGain && gain <= maxGain, qPrintable(QString::number(gain)));
        if (significant)
            QVERIFY(c.gainVsPrevious->significant);
        QCOMPARE(QString::fromStdString(largestSaving(c)), saving);
    }

    // What must not change: ACCL leaves the compute kernels alone; CompilerOpt replaces eager elementwise
    // kernels by Triton ones (a negative elementwise and a positive triton-fused attribution).
    void unchangedWork() {
        const auto& accl = configNamed(ablation, "Base+ACCL");
        const Ns acclGemm = attributed(accl, "gemm");
        QVERIFY2(std::abs(acclGemm) < accl.meanStepNs / 100, qPrintable(QString::number(acclGemm)));
        const auto& compiled = configNamed(ablation, "AC2+ACCL+CompilerOpt");
        QVERIFY(attributed(compiled, "triton-fused") > 0);
        QVERIFY(attributed(compiled, "elementwise/reduction") < -attributed(compiled, "triton-fused"));
    }

    void unknownConfigurationIsRefused() {
        StudyOptions o;
        o.configs = {"Base", "NoSuchConfig"};
        QVERIFY_THROWS_EXCEPTION(InputError, resolveOptions(study(), o));
    }
};

QTEST_GUILESS_MAIN(TestSynth)
#include "tst_synth.moc"
