// Kernel classification rules: default categories of docs/metrics.md on real kernel names (taken from the
// fixtures), first-match-wins order, JSON loading and its errors, the exclusive priority, the categoriser;
// hostile rules and names (issue 14): linear-time matching, megabyte names and patterns, a rule stored in
// a workspace.
#include "TestPaths.h"
#include "core/InputError.h"
#include "core/NameBound.h"
#include "ingest/IngestPipeline.h"
#include "metrics/Breakdown.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"
#include "store/MetaKeys.h"
#include "store/Workspace.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <map>

using namespace cnp;

class TestCategoryRules : public QObject {
    Q_OBJECT
private slots:
    void defaults_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("category");
        // Names from tests/data/hta/nccl_parser_config, trace_filter and resources/demo (H200).
        QTest::newRow("nccl allreduce")
            << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
            << "communication";
        QTest::newRow("nccl dev kernel")
            << "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
            << "communication";
        QTest::newRow("nccl sym") << "ncclSymDevKernel_AllReduce"
                                  << "communication";
        QTest::newRow("rccl any case") << "RCCL_allreduce_kernel"
                                       << "communication";
        QTest::newRow("accl") << "acclAllReduceKernel"
                              << "communication";
        QTest::newRow("flash") << "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>"
                               << "attention";
        QTest::newRow("cudnn sdpa") << "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_3"
                                    << "attention"; // attention precedes gemm: "wgmma" would also match gemm
        QTest::newRow("nvjet") << "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"
                               << "gemm";
        QTest::newRow("cutlass") << "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64>"
                                 << "gemm";
        QTest::newRow("sgemm") << "ampere_sgemm_128x64_nn"
                               << "gemm";
        QTest::newRow("adam")
            << "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<FusedAdamMathFunctor>"
            << "optimizer";
        QTest::newRow("triton") << "triton_poi_fused_add_mul_3"
                                << "triton-fused";
        QTest::newRow("triton not prefix") << "my_triton_kernel"
                                           << "other";
        QTest::newRow("elementwise")
            << "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"
            << "elementwise/reduction";
        QTest::newRow("reduce") << "void at::native::reduce_kernel<512, 1>"
                                << "elementwise/reduction";
        QTest::newRow("other") << "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float>"
                               << "other";
        QTest::newRow("empty") << ""
                               << "other";
        // ROCm: rocBLAS/hipBLASLt (Tensile), MIOpen, composable-kernel FMHA, RCCL.
        QTest::newRow("tensile gemm") << "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_"
                                         "LDSB0_AFC1_AFEM1_ISA90a_WG64_4_1"
                                      << "gemm";
        QTest::newRow("hipblaslt") << "Cijk_Ailk_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT256x256x64_MI32x32x8"
                                   << "gemm";
        QTest::newRow("miopen conv asm") << "miopenSp3AsmConv_v21_1_3_gfx9_fp32_stride1"
                                         << "convolution";
        QTest::newRow("miopen naive conv") << "naive_conv_fwd_nchw_float_double_float"
                                           << "convolution";
        QTest::newRow("miopen igemm conv") << "igemm_fwd_gtcx_nchw_fp32_bx0_ex1_bt128x128x16_wt32x32x2"
                                           << "convolution"; // a convolution, though "gemm" is in the name
        QTest::newRow("miopen batchnorm") << "MIOpenBatchNormFwdTrainSpatial"
                                          << "elementwise/reduction";
        QTest::newRow("ck fmha")
            << "ck_tile::kentry<256, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVS>>"
            << "attention";
        QTest::newRow("rccl") << "ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"
                              << "communication";
    }
    void defaults() {
        QFETCH(QString, name);
        QFETCH(QString, category);
        QCOMPARE(QString::fromStdString(CategoryRules().classify(name.toStdString())), category);
    }

    // The MI250 trace (HTA test data, ROCm 6.2): its 14 kernels by category, counted independently with a
    // Python re.search over the JSON's kernel names: 2 Tensile Cijk_ GEMMs (the old rules left them
    // "other"), 1 multi_tensor_apply, 11 at::native elementwise/reduce kernels.
    void mi250TraceCategories() {
        TraceData t =
            importFile((testpaths::dataDir() + "/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz")
                           .toStdString());
        categoriseKernels(t, CategoryRules());
        std::map<std::string, int> counts;
        for (const auto& k : t.kernels)
            ++counts[t.strings.at(k.category)];
        const std::map<std::string, int> expected{
            {"gemm", 2}, {"optimizer", 1}, {"elementwise/reduction", 11}};
        QCOMPARE(counts, expected);
    }

    void resourceFileMatchesBuiltins() {
        const auto file = CategoryRules::fromFile(
            (testpaths::sourceDir() + "/resources/rules/categories.json").toStdString());
        QCOMPARE(QString::fromStdString(file.toJson()), QString::fromStdString(CategoryRules().toJson()));
    }

    void customRules() {
        const auto r = CategoryRules::fromJson("{\"rules\":[{\"category\":\"mine\",\"pattern\":\"^foo\"},{"
                                               "\"category\":\"communication\",\"pattern\":\"nccl\"}],\n"
                                               "                \"fallback\":\"rest\"}",
                                               "test.json");
        QCOMPARE(QString::fromStdString(r.classify("FOOBAR_nccl")),
                 QStringLiteral("mine")); // first match, any case
        QCOMPARE(QString::fromStdString(r.classify("x_nccl")), QStringLiteral("communication"));
        QCOMPARE(QString::fromStdString(r.classify("gemm")), QStringLiteral("rest"));
        // No priority given: rule order, fallback last; communication never a compute category.
        const auto p = r.computePriority();
        QCOMPARE(p.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(p[0]), QStringLiteral("mine"));
        QCOMPARE(QString::fromStdString(p[1]), QStringLiteral("rest"));
        QVERIFY(r.rangeRules().empty()); // none unless the document has "range_rules"
        // Round trip.
        const auto again = CategoryRules::fromJson(r.toJson(), "again");
        QCOMPARE(QString::fromStdString(again.toJson()), QString::fromStdString(r.toJson()));
    }

    void defaultPriority() {
        const auto p = CategoryRules().computePriority();
        // recompute (the built-in range rule, docs/metrics.md) first: recomputed work counts as such.
        const std::vector<std::string> expected{"recompute",   "gemm",         "attention",
                                                "convolution", "triton-fused", "elementwise/reduction",
                                                "optimizer",   "other"};
        QCOMPARE(p, expected);
    }

    void badRules_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{rules"
                                  << "not valid JSON";
        QTest::newRow("nested a million levels deep")
            << "{\"rules\":" + QString(1000000, '[') << "not valid JSON: nested deeper than 64 levels";
        QTest::newRow("array") << "[]"
                               << "\"rules\" array";
        QTest::newRow("rule not object") << "{\"rules\":[1]}"
                                         << "\"category\" and \"pattern\"";
        QTest::newRow("bad regex") << "{\"rules\":[{\"category\":\"x\",\"pattern\":\"(unclosed\"}]}"
                                   << "rule 1 (category 'x'): invalid regex '(unclosed': missing )";
        // ECMAScript features RE2 does not have (docs/metrics.md, "Rule syntax").
        QTest::newRow("backreference") << "{\"rules\":[{\"category\":\"a\",\"pattern\":\"a\"},{\"category\":"
                                          "\"x\",\"pattern\":\"(a)\\\\1\"}]}"
                                       << "rule 2 (category 'x'): invalid regex '(a)\\1'";
        QTest::newRow("lookahead") << "{\"rules\":[{\"category\":\"x\",\"pattern\":\"gemm(?=_)\"}]}"
                                   << "rule 1 (category 'x'): invalid regex 'gemm(?=_)'";
        QTest::newRow("reserved") << "{\"rules\":[{\"category\":\"memory\",\"pattern\":\"x\"}]}"
                                  << "reserved";
        QTest::newRow("empty fallback") << "{\"rules\":[],\"fallback\":\"\"}"
                                        << "fallback";
        QTest::newRow("range rules not an array") << "{\"rules\":[],\"range_rules\":{}}"
                                                  << "\"range_rules\" must be an array of rules";
        QTest::newRow("range rule without pattern") << "{\"rules\":[],\"range_rules\":[{\"category\":\"r\"}]}"
                                                    << "every range rule needs string fields";
        QTest::newRow("bad range regex")
            << "{\"rules\":[],\"range_rules\":[{\"category\":\"r\",\"pattern\":\"(x\"}]}"
            << "range rule 1 (category 'r'): invalid regex '(x': missing )";
        QTest::newRow("reserved range category")
            << "{\"rules\":[],\"range_rules\":[{\"category\":\"idle\",\"pattern\":\"x\"}]}"
            << "range rule 1 (category 'idle'): category 'idle' is reserved";
    }
    void badRules() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        try {
            CategoryRules::fromJson(json.toStdString(), "rules.json");
            QFAIL("accepted bad rules");
        } catch (const InputError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith("rules.json: "), qPrintable(what));
            QVERIFY2(what.contains(message), qPrintable(what));
            QVERIFY2(what.size() < 600, qPrintable(what.left(600))); // bounded, whatever the input's size
        }
    }

    // Issue 33.5 and 33.7: bounds at intake. A document over 1 MiB or with more than 1,000 rules is refused
    // before any regex is compiled; "idle" as the fallback is refused by name (it surfaced a raw SQL
    // UNIQUE-constraint error); a regex error quotes at most 200 bytes of the engine's message (a 10 MB
    // line before); more than 64 compute categories are refused naming the file (62 and the fallback
    // were refused as "more than 62", naming none).
    void boundedRules_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message"); // "" = accepted
        // n rules over `categories` categories c0, c1, ...
        auto rules = [](int n, const QString& fallback, int categories = 1 << 30) {
            QStringList r;
            for (int i = 0; i < n; ++i)
                r << QStringLiteral("{\"category\":\"c%1\",\"pattern\":\"zz%2\"}").arg(i % categories).arg(i);
            return "{\"rules\":[" + r.join(',') + "]" +
                   (fallback.isEmpty() ? QString() : ",\"fallback\":\"" + fallback + "\"") + "}";
        };
        QTest::newRow("1,000 rules") << rules(1000, "c0", 8) << "";
        QTest::newRow("1,001 rules")
            << rules(1001, "c0", 8)
            << "rules.json: more than 1000 rules and range rules; category rules hold "
               "at most 1000";
        QTest::newRow("over 1 MiB")
            << "{\"rules\":[], \"comment\":\"" + QString(1 << 20, 'x') + "\"}"
            << "rules.json: rule document of 1048602 bytes; category rules are at most "
               "1048576 bytes (1 MiB)";
        QTest::newRow("62 categories and the fallback") << rules(62, "") << "";
        QTest::newRow("64 categories") << rules(64, "c0") << "";
        QTest::newRow("64 categories and the fallback")
            << rules(64, "")
            << "rules.json: the rules name 65 kernel categories (communication and memory not counted, the "
               "fallback 'other' counted); at most 64 are supported";
        QTest::newRow("fallback idle")
            << rules(1, "idle")
            << "rules.json: \"fallback\" 'idle' is reserved (memory copies and idle "
               "time have their own categories); choose another name, such as "
               "\"other\"";
        QTest::newRow("10 MB bad regex")
            << "{\"rules\":[{\"category\":\"x\",\"pattern\":\"" + QString(500000, '(') + "\"}]}"
            << "rules.json: rule 1 (category 'x'): invalid regex '" + QString(80, '(') + "...': ";
    }
    void boundedRules() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        try {
            const CategoryRules r = CategoryRules::fromJson(json.toStdString(), "rules.json");
            QVERIFY2(message.isEmpty(), "accepted");
            // Accepted rules break a window down by every category (62 + fallback = 63 compute bits).
            const CategoryOrder order = CategoryOrder::fromComputePriority(r.computePriority());
            const RankTimeline t({{0, 10, 0}, {5, 20, order.memory}, {15, 30, order.communication - 1}},
                                 order);
            const WindowBreakdown b = t.breakdown({0, 30});
            QCOMPARE(b.compute, Ns(25));
            QCOMPARE(b.memory, Ns(5));
        } catch (const InputError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(!message.isEmpty(), qPrintable(what.left(300)));
            QVERIFY2(what.startsWith(message), qPrintable(what.left(600)));
            QVERIFY2(what.size() < 600, qPrintable(QString::number(what.size())));
        }
    }

    // A --rules path that is not a regular file, or a file over 1 MiB, is refused before it is read: a
    // FIFO blocked forever, /dev/zero and a 4 GB sparse file ate memory.
    void ruleFileBounded_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message"); // after "PATH: "
        QTest::newRow("fifo")
            << "fifo"
            << "is not a regular file (a FIFO (named pipe)); a rule file must be a regular file";
        QTest::newRow("/dev/zero")
            << "/dev/zero"
            << "is not a regular file (a character device); a rule file must be a regular "
               "file";
        QTest::newRow("4 GB sparse") << "sparse"
                                     << "is 4294967296 bytes; a rule file is at most 1048576 bytes (1 MiB)";
        QTest::newRow("folder") << "folder"
                                << "is not a regular file (a directory); a rule file must be a regular file";
        QTest::newRow("missing") << "missing"
                                 << "cannot open rule file: No such file or directory";
    }
    void ruleFileBounded() {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        std::string path = dir.filePath("rules.json").toStdString();
        if (kind == "fifo") {
            QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
        } else if (kind == "/dev/zero") {
            path = "/dev/zero";
        } else if (kind == "sparse") {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(4) << 30)); // sparse: no block written
        } else if (kind == "folder") {
            QVERIFY(QDir().mkpath(QString::fromStdString(path)));
        }
        try {
            CategoryRules::fromFile(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.what()), QString::fromStdString(path) + ": " + message);
        }
    }

    // Patterns that backtracking engines take exponential time (or stack depth) on: RE2 is linear.
    void linearTime_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<int>("length");
        QTest::newRow("(a+)+$, 28 chars") << "(a+)+$" << 28;
        QTest::newRow("(a+)+$, 1 MB") << "(a+)+$" << (1 << 20);
        QTest::newRow("(a|aa)*c, 1 MB") << "(a|aa)*c" << (1 << 20);
        QTest::newRow("(.)*x, 1 MB") << "(.)*x" << (1 << 20);
    }
    void linearTime() {
        QFETCH(QString, pattern);
        QFETCH(int, length);
        const auto r = CategoryRules::fromJson("{\"rules\":[{\"category\":\"evil\",\"pattern\":\"" +
                                                   pattern.toStdString() + "\"}]}",
                                               "evil.json");
        const std::string name = std::string(static_cast<std::size_t>(length), 'a') + "!";
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(QString::fromStdString(r.classify(name)), QStringLiteral("other"));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed()) + " ms"));
    }

    // A megabyte-long pattern either compiles or is refused naming the rule; it never crashes.
    void megabytePattern() {
        const std::string json =
            "{\"rules\":[{\"category\":\"big\",\"pattern\":\"" + std::string(1000000, 'a') + "\"}]}";
        try {
            const auto r = CategoryRules::fromJson(json, "big.json");
            QCOMPARE(QString::fromStdString(r.classify("aaa")), QStringLiteral("other"));
        } catch (const InputError& e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith("big.json: rule 1 (category 'big'): invalid regex 'aaaa"),
                     qPrintable(what));
            QVERIFY2(what.size() < 300, "the message quotes an excerpt, not the megabyte");
        }
    }

    // A megabyte name is bounded at intake (core/NameBound.h) and categorised.
    void megabyteName() {
        TraceData t;
        KernelEvent k;
        k.name = t.strings.intern(std::string(1 << 20, 'x') + "gemm");
        t.kernels.push_back(k);
        k.name = t.strings.intern("nvjet_" + std::string(1 << 20, 'y'));
        t.kernels.push_back(k);
        QCOMPARE(countTruncatedNames(t.strings), std::size_t(2));
        QCOMPARE(t.strings.at(t.kernels[0].name).size() <= kMaxNameBytes, true);
        QVERIFY(QString::fromStdString(t.strings.at(t.kernels[1].name)).endsWith("...[1048582 bytes]"));
        categoriseKernels(t, CategoryRules());
        // The "gemm" suffix was cut off; the nvjet_ prefix was kept.
        QCOMPARE(QString::fromStdString(t.strings.at(t.kernels[0].category)), QStringLiteral("other"));
        QCOMPARE(QString::fromStdString(t.strings.at(t.kernels[1].category)), QStringLiteral("gemm"));
    }

    // A rule stored in a workspace (meta category_rules) applies to every later ingest; with std::regex a
    // long name made (.)* recurse per character and crash every ingest into that workspace.
    void ruleStoredInWorkspace() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("ws.cnpdb").toStdString();
        Workspace ws(path, Workspace::Mode::CreateIfMissing);
        ws.setMeta(std::string(metakeys::kCategoryRules),
                   "{\"rules\":[{\"category\":\"evil\",\"pattern\":\"^(.)*z$\"}]}");
        TraceData t;
        t.info.name = "long names";
        RankInfo rank;
        t.ranks.push_back(rank);
        for (const std::string& n : {std::string(4000, 'q') + "z", std::string(1 << 20, 'q')}) {
            KernelEvent k;
            k.start = 100;
            k.end = 200;
            k.name = t.strings.intern(n);
            t.kernels.push_back(k);
        }
        const RunId run = addTrace(ws, std::move(t));
        QVERIFY(run > RunId(0));
        const TraceData stored = ws.loadRun(run);
        QCOMPARE(stored.kernels.size(), std::size_t(2));
        for (const auto& k :
             stored.kernels) // the 4001-byte name matches the rule; the cut 1 MiB one does not
            QCOMPARE(QString::fromStdString(stored.strings.at(k.category)),
                     stored.strings.at(k.name).back() == 'z' ? QStringLiteral("evil")
                                                             : QStringLiteral("other"));
    }

    void categoriser() {
        TraceData t;
        for (const char* n : {"ncclKernel_AllReduce", "nvjet_x", "ncclKernel_AllReduce", "weird"}) {
            KernelEvent k;
            k.name = t.strings.intern(n);
            t.kernels.push_back(k);
        }
        categoriseKernels(t, CategoryRules());
        QCOMPARE(QString::fromStdString(t.strings.at(t.kernels[0].category)),
                 QStringLiteral("communication"));
        QCOMPARE(QString::fromStdString(t.strings.at(t.kernels[1].category)), QStringLiteral("gemm"));
        QCOMPARE(t.kernels[2].category, t.kernels[0].category);
        QCOMPARE(QString::fromStdString(t.strings.at(t.kernels[3].category)), QStringLiteral("other"));
    }
};

QTEST_APPLESS_MAIN(TestCategoryRules)
#include "tst_categoryrules.moc"
