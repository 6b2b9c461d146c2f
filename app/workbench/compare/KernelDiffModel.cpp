#include "KernelDiffModel.h"

#include "ChartPalette.h"
#include "UnitFormat.h"

#include <optional>

namespace cnp::wb {

KernelDiffModel::KernelDiffModel(QObject* parent) : RowTableModel(parent, Qt::UserRole) {
    using R = const KernelDiffRow&;
    auto text = [](const std::string& s) { return QVariant(QString::fromStdString(s)); };
    auto dur = [](double ns) { return QVariant(UnitFormat::duration(ns)); };
    auto exact = [](std::int64_t ns) { return QVariant(UnitFormat::durationExact(ns)); };
    auto optDur = [](const std::optional<double>& v) {
        return QVariant(v ? UnitFormat::duration(*v) : QStringLiteral("—"));
    };
    auto optRaw = [](const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); };
    const auto L = Qt::AlignLeft | Qt::AlignVCenter;
    const auto N = kNumberAlignment;
    setColumns(
        {{tr("Kernel"),
          [](R r) {
              return QVariant(QString::fromStdString(r.name) +
                              (r.namesA > 1 || r.namesB > 1
                                   ? QStringLiteral("  [%1/%2 names]").arg(r.namesA).arg(r.namesB)
                                   : QString()));
          },
          L, [=](R r) { return text(r.name); }, [=](R r) { return text(r.name); }},
         {tr("Category"), [=](R r) { return text(r.category); }, L, [=](R r) { return text(r.category); }},
         {tr("Class"), [=](R r) { return text(r.cls); }, L, [=](R r) { return text(r.cls); }},
         {tr("Count A"), [](R r) { return QVariant(qlonglong(r.countA)); }, N,
          [](R r) { return QVariant(qlonglong(r.countA)); }},
         {tr("Count B"), [](R r) { return QVariant(qlonglong(r.countB)); }, N,
          [](R r) { return QVariant(qlonglong(r.countB)); }},
         {tr("Total A"), [=](R r) { return dur(double(r.totalA)); }, N,
          [](R r) { return QVariant(qlonglong(r.totalA)); }, [=](R r) { return exact(r.totalA); }},
         {tr("Total B"), [=](R r) { return dur(double(r.totalB)); }, N,
          [](R r) { return QVariant(qlonglong(r.totalB)); }, [=](R r) { return exact(r.totalB); }},
         {tr("Δ total"),
          [](R r) {
              return QVariant((r.delta > 0 ? QStringLiteral("+") : QString()) +
                              UnitFormat::duration(double(r.delta)));
          },
          N, [](R r) { return QVariant(qlonglong(r.delta)); }, [=](R r) { return exact(r.delta); }},
         {tr("Mean A/call"), [=](R r) { return optDur(r.meanA()); }, N,
          [=](R r) { return optRaw(r.meanA()); }},
         {tr("Mean B/call"), [=](R r) { return optDur(r.meanB()); }, N,
          [=](R r) { return optRaw(r.meanB()); }},
         {tr("B/A per call"),
          [](R r) {
              return QVariant(r.perCallRatio() ? UnitFormat::ratio(*r.perCallRatio()) : QStringLiteral("—"));
          },
          N, [=](R r) { return optRaw(r.perCallRatio()); },
          [](R) {
              return QVariant(
                  tr("Mean time per call in B divided by that in A (> 1: each call is slower in B)"));
          }}},
        ColumnCount);
}

void KernelDiffModel::setRows(std::vector<KernelDiffRow> rows) {
    setRowsReset(std::move(rows));
}

QVariant KernelDiffModel::extraData(const KernelDiffRow& r, int c, int role) const {
    if (role == Qt::ForegroundRole && (c == DeltaColumn || c == ClassColumn)) {
        if (r.cls == "faster" || r.cls == "removed")
            return ChartPalette::positiveDeltaColor();
        if (r.cls == "slower" || r.cls == "added")
            return ChartPalette::negativeDeltaColor();
    }
    if (role == Qt::DecorationRole && c == CategoryColumn)
        return ChartPalette::categoryColor(QString::fromStdString(r.category));
    return {};
}

} // namespace cnp::wb
