// Issue 32.10: kernel names elided in the middle made different kernels look identical. The name column
// shows the compact name (no "void ", no qualifiers, "(…)" for the arguments) cut at the right, so the
// kernel's own name and its first template arguments stay in view; the model keeps the whole name.
#include "KernelNameDelegate.h"

#include <QFontMetrics>
#include <QStandardItemModel>
#include <QStyleOptionViewItem>
#include <QtTest>

using cnp::wb::KernelNameDelegate;

namespace {
const QString kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)";
const QString kMul =
    "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::MulFunctor<float>, at::detail::Array<char*, 3>)";

struct Probe : KernelNameDelegate {
    using KernelNameDelegate::initStyleOption;
};
} // namespace

class TestKernelNameDelegate : public QObject {
    Q_OBJECT
private slots:
    void compact_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shown");
        QTest::newRow("torch elementwise") << kAdd
                                           << "vectorized_elementwise_kernel<4, AddFunctor<float>, "
                                              "Array<char*, 3> >(…)";
        QTest::newRow("anonymous namespace")
            << "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>"
               "(float*, float const*, int, int, int)"
            << "softmax_warp_forward<float, float, float, 10, false>(…)";
        QTest::newRow("plain C name") << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"
                                      << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64";
        QTest::newRow("nccl")
            << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
            << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(…)";
        QTest::newRow("operator() kept") << "void cutlass::Kernel<Op>::operator()()"
                                         << "Kernel<Op>::operator()(…)";
        QTest::newRow("triton") << "triton_poi_fused_add_mul_0"
                                << "triton_poi_fused_add_mul_0";
        QTest::newRow("empty") << ""
                               << "";
    }
    void compact() {
        QFETCH(QString, name);
        QFETCH(QString, shown);
        QCOMPARE(KernelNameDelegate::compact(name), shown);
    }

    // What the issue saw: at a name column's width both names read the same when elided in the middle;
    // the delegate's text tells them apart.
    void differentKernelsLookDifferent() {
        QStandardItemModel model(2, 1);
        model.setData(model.index(0, 0), kAdd);
        model.setData(model.index(1, 0), kMul);
        Probe delegate;
        QStyleOptionViewItem a, b;
        delegate.initStyleOption(&a, model.index(0, 0));
        delegate.initStyleOption(&b, model.index(1, 0));
        QCOMPARE(a.textElideMode, Qt::ElideRight);
        const QFontMetrics fm(a.font);
        const int width = fm.horizontalAdvance(QString(45, 'x')); // about 45 characters of the column
        QCOMPARE(fm.elidedText(kAdd, Qt::ElideMiddle, width), fm.elidedText(kMul, Qt::ElideMiddle, width));
        QVERIFY(fm.elidedText(a.text, a.textElideMode, width) !=
                fm.elidedText(b.text, b.textElideMode, width));
        QCOMPARE(model.data(model.index(0, 0)).toString(), kAdd); // the model keeps the whole name
    }
};

QTEST_MAIN(TestKernelNameDelegate)
#include "tst_kernelnamedelegate.moc"
