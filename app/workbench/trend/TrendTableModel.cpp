#include "TrendTableModel.h"

#include "UnitFormat.h"

#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

namespace cnp::wb {
namespace {

QVariant rawOr(bool present, double v) {
    return present ? v : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

TrendTableModel::TrendTableModel(QObject* parent) : RowTableModel<TrendRow>(parent) {
    auto value = [this](double TrendRow::*member) {
        return [this, member](const TrendRow& r) -> QVariant {
            return r.present ? valueText(metric_, unit_, r.*member) : QStringLiteral("–");
        };
    };
    auto raw = [](double TrendRow::*member) {
        return [member](const TrendRow& r) -> QVariant { return rawOr(r.present, r.*member); };
    };
    std::vector<ColumnSpec> columns{
        {tr("Release"), [](const TrendRow& r) -> QVariant { return r.release; }},
        {tr("Date"), [](const TrendRow& r) -> QVariant { return r.date; }},
        {tr("Value"), value(&TrendRow::value), kNumberAlignment, raw(&TrendRow::value)},
        {tr("95% CI low"), value(&TrendRow::lo), kNumberAlignment, raw(&TrendRow::lo)},
        {tr("95% CI high"), value(&TrendRow::hi), kNumberAlignment, raw(&TrendRow::hi)},
        {tr("vs previous"),
         [](const TrendRow& r) -> QVariant {
             return r.present && r.hasPrevious ? signedPercent(r.changeVsPrevious) : QString();
         },
         kNumberAlignment,
         [](const TrendRow& r) -> QVariant { return rawOr(r.present && r.hasPrevious, r.changeVsPrevious); }},
        {tr("Change point"),
         [](const TrendRow& r) -> QVariant {
             return r.changePoint ? changePointText(r.shift, r.pValue) : QString();
         },
         Qt::AlignLeft | Qt::AlignVCenter,
         {},
         [](const TrendRow& r) -> QVariant {
             return r.changePoint ? changePointText(r.shift, r.pValue) : QVariant();
         }},
        {tr("Commit"), [](const TrendRow& r) -> QVariant { return r.commit; }},
    };
    columns[ChangePointColumn].headerTooltip =
        tr("E-divisive change point: the first release of a new segment, the shift of the segment means and "
           "the permutation p-value (docs/metrics.md, \"Change points\")");
    columns[ChangeColumn].headerTooltip = tr("Change from the previous release that has this figure");
    setColumns(std::move(columns), ColumnCount);
}

QString TrendTableModel::valueText(const QString& metric, const QString& unit, double value) {
    if (metric == QLatin1String("step_time"))
        return UnitFormat::duration(value);
    if (metric == QLatin1String("throughput"))
        return UnitFormat::rate(value, unit);
    return UnitFormat::percent(value);
}

QString TrendTableModel::signedPercent(double fraction) {
    return (fraction >= 0 ? QStringLiteral("+") : QString()) + UnitFormat::percent(fraction);
}

QString TrendTableModel::changePointText(double shift, double pValue) {
    return tr("shift %1 (p = %2)").arg(signedPercent(shift), QString::number(pValue, 'f', 3));
}

void TrendTableModel::clear() {
    metric_.clear();
    unit_.clear();
    setRowsReset({});
}

void TrendTableModel::setSeries(const TrendSeries& series, const std::vector<HistoryEntry>& releases) {
    metric_ = QString::fromStdString(series.metric);
    unit_ = QString::fromStdString(series.unit);
    std::vector<TrendRow> rows;
    rows.reserve(series.points.size());
    std::unordered_map<std::string, const HistoryEntry*> byName; // O(1) per point, not O(releases)
    for (const HistoryEntry& e : releases)
        byName.emplace(e.release, &e);
    const TrendPoint* previous = nullptr;
    for (const TrendPoint& p : series.points) {
        TrendRow& r = rows.emplace_back();
        r.release = QString::fromStdString(p.release);
        if (const auto it = byName.find(p.release); it != byName.end()) {
            r.date = QString::fromStdString(it->second->date);
            r.commit = QString::fromStdString(it->second->commit);
        }
        r.present = p.present;
        r.value = p.value;
        r.lo = p.lo;
        r.hi = p.hi;
        if (p.present && previous && previous->value > 0) {
            r.hasPrevious = true;
            r.changeVsPrevious = p.value / previous->value - 1;
        }
        if (p.present)
            previous = &p;
    }
    for (const ChangePoint& c : series.changes) {
        if (c.index >= rows.size())
            continue;
        TrendRow& r = rows[c.index];
        r.changePoint = true;
        r.shift = c.meanBefore > 0 ? c.meanAfter / c.meanBefore - 1 : 0;
        r.pValue = c.pValue;
    }
    setRowsReset(std::move(rows));
}

} // namespace cnp::wb
