#include "CollectiveEfficiencyModel.h"

#include "UnitFormat.h"

namespace cnp::wb {

namespace {

// "64 KiB – 256 KiB", or "unknown" for calls of unknown size.
QString bucketText(const CollectiveEfficiencyRow& r) {
    if (r.bucketMinBytes < 0)
        return CollectiveEfficiencyModel::tr("unknown");
    return QStringLiteral("%1 – %2").arg(UnitFormat::bytes(double(r.bucketMinBytes)),
                                         UnitFormat::bytes(double(r.bucketMaxBytes)));
}

} // namespace

CollectiveEfficiencyModel::CollectiveEfficiencyModel(QObject* parent) : RowTableModel(parent, SortRole) {
    using R = const CollectiveEfficiencyRow&;
    auto number = [](auto f) { return [f](R r) { return QVariant(qlonglong(f(r))); }; };
    auto dash = QStringLiteral("—");
    setColumns({{tr("Operation"), [](R r) { return QVariant(QString::fromUtf8(collectiveOpName(r.op))); },
                 Qt::AlignLeft | Qt::AlignVCenter, [](R r) { return QVariant(int(r.op)); }},
                {tr("Size"), [](R r) { return QVariant(bucketText(r)); }, Qt::AlignLeft | Qt::AlignVCenter,
                 number([](R r) { return r.bucketMinBytes; })},
                {tr("Calls"), number([](R r) { return r.calls; }), kNumberAlignment,
                 number([](R r) { return r.calls; })},
                {tr("Inter-node"), number([](R r) { return r.interNodeCalls; }), kNumberAlignment,
                 number([](R r) { return r.interNodeCalls; })},
                {tr("Transfer"), [](R r) { return QVariant(UnitFormat::duration(double(r.transferNs))); },
                 kNumberAlignment, number([](R r) { return r.transferNs; })},
                {tr("Exposed"), [](R r) { return QVariant(UnitFormat::duration(double(r.exposedNs()))); },
                 kNumberAlignment, number([](R r) { return r.exposedNs(); })},
                {tr("Overlapped"),
                 [dash](R r) {
                     const auto share = r.overlapShare();
                     return QVariant(share ? QStringLiteral("%1 (%2 %)")
                                                 .arg(UnitFormat::duration(double(r.overlappedNs)))
                                                 .arg(*share * 100, 0, 'f', 0)
                                           : dash);
                 },
                 kNumberAlignment, number([](R r) { return r.overlappedNs; })},
                {tr("busbw"),
                 [dash](R r) {
                     return QVariant(r.medianBusBwGBs
                                         ? QStringLiteral("%1 GB/s").arg(*r.medianBusBwGBs, 0, 'f', 2)
                                         : dash);
                 },
                 kNumberAlignment, [](R r) { return QVariant(r.medianBusBwGBs.value_or(-1.0)); }},
                {tr("Of peak"),
                 [dash](R r) {
                     return QVariant(r.medianPeakShare
                                         ? QStringLiteral("%1 %").arg(*r.medianPeakShare * 100, 0, 'f', 1)
                                         : dash);
                 },
                 kNumberAlignment, [](R r) { return QVariant(r.medianPeakShare.value_or(-1.0)); }}},
               ColumnCount);
}

} // namespace cnp::wb
