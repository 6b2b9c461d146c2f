// Kernel classification rules: default categories of docs/metrics.md on real kernel names (taken from the
// fixtures), first-match-wins order, JSON loading and its errors, the exclusive priority, the categoriser.
#include "core/InputError.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"

#include <QtTest>

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
    }
    void defaults() {
        QFETCH(QString, name);
        QFETCH(QString, category);
        QCOMPARE(QString::fromStdString(CategoryRules().classify(name.toStdString())), category);
    }

    void resourceFileMatchesBuiltins() {
        const auto file = CategoryRules::fromFile(CNP_SOURCE_DIR "/resources/rules/categories.json");
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
        // Round trip.
        const auto again = CategoryRules::fromJson(r.toJson(), "again");
        QCOMPARE(QString::fromStdString(again.toJson()), QString::fromStdString(r.toJson()));
    }

    void defaultPriority() {
        const auto p = CategoryRules().computePriority();
        const std::vector<std::string> expected{
            "gemm", "attention", "triton-fused", "elementwise/reduction", "optimizer", "other"};
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
                                   << "invalid regex";
        QTest::newRow("reserved") << "{\"rules\":[{\"category\":\"memory\",\"pattern\":\"x\"}]}"
                                  << "reserved";
        QTest::newRow("empty fallback") << "{\"rules\":[],\"fallback\":\"\"}"
                                        << "fallback";
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
        }
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
