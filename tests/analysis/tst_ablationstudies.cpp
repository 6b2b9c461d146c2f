// Ablation studies (metrics/AblationStudies.h, docs/metrics.md "Studies"): which study a run belongs to,
// how runs group, which study an ablation compares, the merge of one study's order into the plan order,
// and computeAblation keeping a 16-GPU synthetic study apart from a single-GPU real one (issue 32: the
// demo compared "+CompilerOpt 40.6 ms, 32.53x vs baseline" against the synthetic 2 x 8-GPU baseline).
#include "core/InputError.h"
#include "metrics/Ablation.h"
#include "metrics/AblationStudies.h"

#include <QtTest>

using namespace cnp;

using Attributes = std::map<std::string, std::string>;
Q_DECLARE_METATYPE(cnp::RunRecord)
Q_DECLARE_METATYPE(Attributes)

namespace {

RunRecord record(std::int64_t id, const std::string& config, std::int32_t world, const std::string& gpu,
                 bool synthetic = false, const std::string& image = {}) {
    RunRecord r;
    r.id = RunId(id);
    r.info.name = config + "-" + std::to_string(id);
    r.info.config = config;
    r.info.worldSize = world;
    r.rankCount = world;
    if (!gpu.empty())
        r.info.gpuModels = {gpu};
    r.info.synthetic = synthetic;
    r.info.containerImage = image;
    r.info.sourceFormat = synthetic ? "cnpt" : "kineto";
    return r;
}

// A run of `n` steps of `stepNs` each, all gemm.
AblationRun run(RunRecord rec, Attributes attrs, Ns stepNs, int n = 5) {
    AblationRun r{std::move(rec), std::move(attrs), {}};
    for (int i = 0; i < n; ++i) {
        AblationStepSample s;
        s.time = stepNs;
        s.breakdown.compute = stepNs;
        s.exclusive = {{"gemm", stepNs}, {"idle", 0}};
        r.samples.steps.push_back(s);
    }
    return r;
}

// The demo's shape: a real single-GPU H200 ablation (ids 1..3, ingested first) and a synthetic
// 2 x 8-GPU study (ids 4..5, ingested last), with the demo's plan order over both.
AblationInputs demoLike() {
    AblationInputs in;
    in.settings.path = "demo.cnpdb";
    in.settings.planOrder = {"Base", "Base+ACCL", "Base (eager)", "+CompilerOpt", "Base+CkptOpt"};
    in.settings.planOrderMeta = "Base,Base+ACCL,Base (eager),+CompilerOpt,Base+CkptOpt";
    in.categories.names = {"gemm"};
    in.runs.push_back(run(record(1, "Base (eager)", 1, "NVIDIA H200"), {}, 50'000'000));
    in.runs.push_back(run(record(2, "+CompilerOpt", 1, "NVIDIA H200"), {}, 40'600'000));
    in.runs.push_back(run(record(3, "Base+CkptOpt", 1, "NVIDIA H200"), {}, 70'000'000));
    const std::string image = "synthetic:acs-llama3-8b";
    in.runs.push_back(run(record(4, "Base", 16, "NVIDIA H100 80GB HBM3", true, image),
                          {{"study", "acs-llama3-8b"}}, 1'320'000'000));
    in.runs.push_back(run(record(5, "Base+ACCL", 16, "NVIDIA H100 80GB HBM3", true, image),
                          {{"study", "acs-llama3-8b"}}, 1'100'000'000));
    return in;
}

std::vector<std::string> configsOf(const AblationResult& r) {
    std::vector<std::string> out;
    for (const auto& c : r.configs)
        out.push_back(c.config);
    return out;
}
} // namespace

class TestAblationStudies : public QObject {
    Q_OBJECT

private slots:
    void studyOfRun_data() {
        QTest::addColumn<RunRecord>("run");
        QTest::addColumn<Attributes>("attributes");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("origin");
        const auto h200 = record(1, "A", 1, "NVIDIA H200");
        QTest::newRow("explicit wins over the plan")
            << h200 << Attributes{{"study", "mine"}, {"plan.name", "p"}} << "mine"
            << int(StudyOrigin::Explicit);
        QTest::newRow("plan name") << h200 << Attributes{{"plan.name", "llama-plan"}} << "llama-plan"
                                   << int(StudyOrigin::Plan);
        QTest::newRow("plan path stem when the plan has no name")
            << h200 << Attributes{{"plan.name", ""}, {"plan.path", "/x/plans/single-gpu.yaml"}}
            << "single-gpu" << int(StudyOrigin::Plan);
        QTest::newRow("empty study attribute counts as none")
            << h200 << Attributes{{"study", ""}} << "1x NVIDIA H200" << int(StudyOrigin::Implicit);
        QTest::newRow("synthetic image")
            << record(2, "Base", 16, "NVIDIA H100", true, "synthetic:acs-llama3-8b") << Attributes{}
            << "acs-llama3-8b" << int(StudyOrigin::Synthetic);
        QTest::newRow("image label of a real run is not a study")
            << record(2, "Base", 2, "NVIDIA H100", false, "synthetic:x") << Attributes{} << "2x NVIDIA H100"
            << int(StudyOrigin::Implicit);
        QTest::newRow("implicit synthetic") << record(3, "A", 16, "", true) << Attributes{}
                                            << "16x unknown GPU (synthetic)" << int(StudyOrigin::Implicit);
        // A crafted 10 kB study attribute is cut to the bound.
        QTest::newRow("long name cut") << h200 << Attributes{{"study", std::string(10000, 's')}}
                                       << QString(int(kMaxStudyNameBytes), 's') << int(StudyOrigin::Explicit);
    }
    void studyOfRun() {
        QFETCH(RunRecord, run);
        QFETCH(Attributes, attributes);
        QFETCH(QString, name);
        QFETCH(int, origin);
        const RunStudy s = cnp::studyOfRun(run, attributes);
        QCOMPARE(QString::fromStdString(s.name), name);
        QCOMPARE(int(s.origin), origin);
    }

    void groupsNewestFirst() {
        const auto in = demoLike();
        std::vector<StudyMember> members;
        for (const auto& r : in.runs)
            members.push_back(studyMemberOf(r.run, r.attributes));
        const auto studies = groupStudies(members);
        QCOMPARE(studies.size(), std::size_t(2));
        QCOMPARE(studies[0].name, std::string("acs-llama3-8b"));
        QCOMPARE(studies[0].latest, RunId(5));
        QCOMPARE(studies[0].configs, (std::vector<std::string>{"Base", "Base+ACCL"}));
        QCOMPARE(studies[0].maxWorldSize, 16);
        QVERIFY(studies[0].synthetic);
        QCOMPARE(studies[1].name, std::string("1x NVIDIA H200"));
        QCOMPARE(studies[1].runs, (std::vector<RunId>{RunId(1), RunId(2), RunId(3)}));
        QCOMPARE(int(studies[1].origin), int(StudyOrigin::Implicit));
        QVERIFY(!studies[1].synthetic);
    }

    void chooseStudy_data() {
        QTest::addColumn<QString>("requested");
        QTest::addColumn<QStringList>("named");
        QTest::addColumn<QString>("chosen"); // empty: InputError
        QTest::newRow("default: newest") << "" << QStringList{} << "acs-llama3-8b";
        QTest::newRow("requested") << "1x NVIDIA H200" << QStringList{} << "1x NVIDIA H200";
        QTest::newRow("named configurations") << "" << QStringList{"+CompilerOpt"} << "1x NVIDIA H200";
        QTest::newRow("unknown names do not steer") << "" << QStringList{"nope"} << "acs-llama3-8b";
        QTest::newRow("names spread over studies") << "" << QStringList{"Base", "+CompilerOpt"} << "";
        QTest::newRow("unknown study") << "other" << QStringList{} << "";
    }
    void chooseStudy() {
        QFETCH(QString, requested);
        QFETCH(QStringList, named);
        QFETCH(QString, chosen);
        const auto in = demoLike();
        std::vector<StudyMember> members;
        for (const auto& r : in.runs)
            members.push_back(studyMemberOf(r.run, r.attributes));
        const auto studies = groupStudies(members);
        std::vector<std::string> names;
        for (const auto& n : named)
            names.push_back(n.toStdString());
        if (chosen.isEmpty()) {
            try {
                cnp::chooseStudy(studies, requested.toStdString(), names, "demo.cnpdb");
                QFAIL("no InputError");
            } catch (const InputError& e) {
                QCOMPARE(QString::fromStdString(e.file()), QStringLiteral("demo.cnpdb"));
                const QString m = QString::fromUtf8(e.what());
                QVERIFY2(m.contains(requested.isEmpty() ? "different studies" : "no study named"), e.what());
            }
            return;
        }
        QCOMPARE(QString::fromStdString(cnp::chooseStudy(studies, requested.toStdString(), names, "w").name),
                 chosen);
    }

    void mergeStudyOrder_data() {
        QTest::addColumn<QStringList>("global");
        QTest::addColumn<QStringList>("study");
        QTest::addColumn<QStringList>("reordered");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("reorder in place")
            << QStringList{"S1", "S2", "a", "b", "c"} << QStringList{"a", "b", "c"}
            << QStringList{"c", "a", "b"} << QStringList{"S1", "S2", "c", "a", "b"};
        QTest::newRow("drop one") << QStringList{"a", "S1", "b"} << QStringList{"a", "b"} << QStringList{"b"}
                                  << QStringList{"b", "S1"};
        QTest::newRow("new appended") << QStringList{"S1", "a"} << QStringList{"a"} << QStringList{"a", "z"}
                                      << QStringList{"S1", "a", "z"};
    }
    void mergeStudyOrder() {
        QFETCH(QStringList, global);
        QFETCH(QStringList, study);
        QFETCH(QStringList, reordered);
        QFETCH(QStringList, expected);
        auto v = [](const QStringList& l) {
            std::vector<std::string> out;
            for (const auto& s : l)
                out.push_back(s.toStdString());
            return out;
        };
        QCOMPARE(cnp::mergeStudyOrder(v(global), v(study), v(reordered)), v(expected));
    }

    // The case: the default ablation of the demo compares the synthetic study alone; the real one
    // is compared on its own, against its own baseline (50 ms / 40.6 ms = 1.2315x, never 32.53x).
    void ablationKeepsStudiesApart() {
        const auto in = demoLike();
        const auto synth = computeAblation(in);
        QCOMPARE(synth.study, std::string("acs-llama3-8b"));
        QCOMPARE(configsOf(synth), (std::vector<std::string>{"Base", "Base+ACCL"}));
        QCOMPARE(synth.studies.size(), std::size_t(2));
        QVERIFY(synth.notInPlan.empty());
        AblationOptions o;
        o.study = "1x NVIDIA H200";
        const auto real = computeAblation(in, o);
        QCOMPARE(configsOf(real), (std::vector<std::string>{"Base (eager)", "+CompilerOpt", "Base+CkptOpt"}));
        QCOMPARE(real.baseline, std::string("Base (eager)"));
        QCOMPARE(real.configs[1].speedupVsBaseline.value, 50'000'000.0 / 40'600'000.0);
        for (const auto& w : real.warnings)
            QVERIFY2(w.kind != "mixed-studies", w.message.c_str());
        // Named configurations choose their study.
        AblationOptions byName;
        byName.order = {"+CompilerOpt", "Base (eager)"};
        QCOMPARE(computeAblation(in, byName).study, std::string("1x NVIDIA H200"));
        // Asking for a configuration of the other study names the way out.
        AblationOptions wrong;
        wrong.study = "acs-llama3-8b";
        wrong.baseline = "+CompilerOpt";
        wrong.order = {"Base", "+CompilerOpt"};
        QVERIFY_THROWS_EXCEPTION(InputError, computeAblation(in, wrong));
    }

    // A plan order naming only another study's configurations: this study follows its runs' order rather
    // than failing as a stale plan would.
    void foreignPlanOrder() {
        auto in = demoLike();
        in.settings.planOrderMeta = "Base,Base+ACCL";
        AblationOptions o;
        o.study = "1x NVIDIA H200";
        const auto r = computeAblation(in, o);
        QCOMPARE(configsOf(r), (std::vector<std::string>{"Base (eager)", "+CompilerOpt", "Base+CkptOpt"}));
        // A plan naming no configuration with runs anywhere is still refused.
        in.settings.planOrderMeta = "gone";
        QVERIFY_THROWS_EXCEPTION(InputError, computeAblation(in, o));
    }

    // Mixing is possible only when asked, and then warned about, naming both studies.
    void allStudiesWarns() {
        const auto in = demoLike();
        AblationOptions o;
        o.allStudies = true;
        o.order = {"Base", "+CompilerOpt"};
        const auto r = computeAblation(in, o);
        QVERIFY(r.study.empty());
        QCOMPARE(configsOf(r), (std::vector<std::string>{"Base", "+CompilerOpt"}));
        const auto w = std::find_if(r.warnings.begin(), r.warnings.end(),
                                    [](const AblationWarning& x) { return x.kind == "mixed-studies"; });
        QVERIFY(w != r.warnings.end());
        QVERIFY2(w->message.find("'1x NVIDIA H200'") != std::string::npos &&
                     w->message.find("'acs-llama3-8b'") != std::string::npos &&
                     w->message.find("different GPU counts") != std::string::npos,
                 w->message.c_str());
        o.study = "acs-llama3-8b";
        QVERIFY_THROWS_EXCEPTION(InputError, computeAblation(in, o));
    }

    // selectAblation tells a request which runs to read: the chosen study's only.
    void selectionRuns() {
        const auto in = demoLike();
        const auto s = selectAblation(in.settings, in.runs, {});
        QCOMPARE(s.study, std::string("acs-llama3-8b"));
        QCOMPARE(s.runs, (std::vector<RunId>{RunId(4), RunId(5)}));
        QCOMPARE(s.configs, (std::vector<std::string>{"Base", "Base+ACCL"}));
    }
};

QTEST_APPLESS_MAIN(TestAblationStudies)
#include "tst_ablationstudies.moc"
