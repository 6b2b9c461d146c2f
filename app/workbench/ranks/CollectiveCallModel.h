#pragma once
// The collectives of a run as a table (metrics/CollectiveMatcher.h, docs/metrics.md "Collectives"): one
// row per call, matched across ranks: its communicator (stream) and position, operation, step, members,
// last-arriving rank, wait, transfer, bytes and bus bandwidth. Sortable through SortRole (numbers).
#include "metrics/CollectiveMatcher.h"

#include "RowTableModel.h"

#include <optional>
#include <vector>

namespace cnp::wb {

struct CollectiveCallRow {
    std::int64_t stream = 0;
    std::int32_t sequence = 0, step = -1, lastRank = 0, members = 0;
    bool lastRankUncertain = false; // a rank of another host arrived within the clocks' error of it
    QString op, name;
    Ns waitNs = 0, transferNs = 0;
    Ns firstArrival = 0, lastDeparture = 0; // the call's extent over all its members
    QList<qint32> ranks;                    // its members' ranks
    std::int64_t bytes = 0;
    std::optional<double> busBwGBs;
};

class CollectiveCallModel : public RowTableModel<CollectiveCallRow> {
    Q_OBJECT
public:
    enum Column {
        StreamColumn = 0,
        SequenceColumn,
        OperationColumn,
        StepColumn,
        RanksColumn,
        LastRankColumn,
        WaitColumn,
        TransferColumn,
        BytesColumn,
        BusBwColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    explicit CollectiveCallModel(QObject* parent = nullptr);

    // One row per call of `match`, in its order (stream, sequence). O(calls + members).
    // `lastRankUncertain` (optional, match.calls' order): the calls whose last rank is not claimed across
    // hosts (metrics/CrossHostOrder.h), shown "N?".
    void setMatch(const CollectiveMatch& match, const std::vector<std::uint8_t>& lastRankUncertain = {});
    const CollectiveCallRow& row(int r) const { return rows()[static_cast<std::size_t>(r)]; }
};

} // namespace cnp::wb
