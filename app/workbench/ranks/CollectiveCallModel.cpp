#include "CollectiveCallModel.h"

#include "UnitFormat.h"

#include <algorithm>

namespace cnp::wb {

CollectiveCallModel::CollectiveCallModel(QObject* parent) : RowTableModel(parent, SortRole) {
    using R = const CollectiveCallRow&;
    auto number = [](auto f) { return [f](R r) { return QVariant(qlonglong(f(r))); }; };
    auto duration = [](auto f) { return [f](R r) { return QVariant(UnitFormat::duration(double(f(r)))); }; };
    setColumns({{tr("Stream"), number([](R r) { return r.stream; }), kNumberAlignment,
                 number([](R r) { return r.stream; })},
                {tr("#"), number([](R r) { return r.sequence; }), kNumberAlignment,
                 number([](R r) { return r.sequence; })},
                {tr("Operation"), [](R r) { return QVariant(r.op); }, Qt::AlignLeft | Qt::AlignVCenter,
                 [](R r) { return QVariant(r.op); }, [](R r) { return QVariant(r.name); }},
                {tr("Step"),
                 [](R r) { return QVariant(r.step >= 0 ? QString::number(r.step) : QStringLiteral("—")); },
                 kNumberAlignment, number([](R r) { return r.step; })},
                {tr("Ranks"), number([](R r) { return r.members; }), kNumberAlignment,
                 number([](R r) { return r.members; })},
                {tr("Last rank"),
                 [](R r) {
                     return QVariant(r.lastRankUncertain ? QStringLiteral("%1?").arg(r.lastRank)
                                                         : QString::number(r.lastRank));
                 },
                 kNumberAlignment, number([](R r) { return r.lastRank; }),
                 [](R r) {
                     return r.lastRankUncertain ? QVariant(CollectiveCallModel::tr(
                                                               "A rank of another host arrived within the "
                                                               "clocks' stated error of rank %1: which "
                                                               "was last is not known.")
                                                               .arg(r.lastRank))
                                                : QVariant();
                 }},
                {tr("Wait"), duration([](R r) { return r.waitNs; }), kNumberAlignment,
                 number([](R r) { return r.waitNs; }),
                 [](R r) { return QVariant(UnitFormat::durationExact(r.waitNs)); }},
                {tr("Transfer"), duration([](R r) { return r.transferNs; }), kNumberAlignment,
                 number([](R r) { return r.transferNs; }),
                 [](R r) { return QVariant(UnitFormat::durationExact(r.transferNs)); }},
                {tr("Bytes"),
                 [](R r) {
                     return QVariant(r.bytes > 0 ? UnitFormat::bytes(double(r.bytes)) : QStringLiteral("—"));
                 },
                 kNumberAlignment, number([](R r) { return r.bytes; })},
                {tr("busbw"),
                 [](R r) {
                     return QVariant(r.busBwGBs ? QStringLiteral("%1 GB/s").arg(*r.busBwGBs, 0, 'f', 2)
                                                : QStringLiteral("—"));
                 },
                 kNumberAlignment, [](R r) { return QVariant(r.busBwGBs.value_or(-1.0)); }}},
               ColumnCount);
}

void CollectiveCallModel::setMatch(const CollectiveMatch& match,
                                   const std::vector<std::uint8_t>& lastRankUncertain) {
    std::vector<CollectiveCallRow> rows;
    rows.reserve(match.calls.size());
    for (std::size_t ci = 0; ci < match.calls.size(); ++ci) {
        const CollectiveCall& c = match.calls[ci];
        CollectiveCallRow r;
        r.lastRankUncertain = ci < lastRankUncertain.size() && lastRankUncertain[ci] != 0;
        r.stream = c.stream;
        r.sequence = c.sequence;
        r.step = c.step;
        r.lastRank = c.lastRank;
        r.members = static_cast<std::int32_t>(c.memberCount);
        r.op = QString::fromUtf8(collectiveOpName(c.op));
        r.name = QString::fromStdString(std::string(match.nameOf(c)));
        r.waitNs = c.waitNs;
        r.transferNs = c.transferNs;
        r.firstArrival = c.firstArrival;
        r.lastDeparture = c.lastArrival;
        for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i) {
            r.lastDeparture = std::max(r.lastDeparture, match.members[i].departure);
            r.ranks << match.members[i].rank;
        }
        r.bytes = c.bytes;
        r.busBwGBs = c.busBwGBs;
        rows.push_back(std::move(r));
    }
    setRowsReset(std::move(rows));
}

} // namespace cnp::wb
