#pragma once
// The breakdown of one rank's critical path by kind (docs/metrics.md, "Critical path"), one row per kind
// with time on the path: kind, time, share of the path's length (also as a bar, BarRole), and the
// longest segment of that kind (its length and the event it belongs to). Rows in PathKind order. A flat
// RowTableModel; the numbers are the analysis library's (CriticalPathResult::byKind), never recomputed.
#include "RowTableModel.h"
#include "metrics/DependencyGraph.h"

#include <QColor>
#include <QString>

namespace cnp {
struct RankCriticalPath;
}

namespace cnp::wb {

struct CriticalPathRow {
    PathKind kind = PathKind::Cpu;
    Ns ns = 0;
    double share = 0;    // of the path's length, 0..1
    Ns longest = 0;      // the longest segment of this kind, ns
    QString longestName; // the event it belongs to ("" for untraced CPU time)
};

class CriticalPathModel : public RowTableModel<CriticalPathRow> {
public:
    enum Column { Kind, Time, Share, Longest, ColumnCount };
    static constexpr int BarRole = Qt::UserRole + 1; // Share: the share as a fraction (the bar's length)

    explicit CriticalPathModel(QObject* parent = nullptr);
    // The rows of `path` (kinds with time on it); nullptr empties the table.
    void setPath(const RankCriticalPath* path);
    // The kind's words in the workbench: "CPU-bound", "GPU compute", "launch overhead"...
    static QString kindName(PathKind kind);
    // The kind's colour: its swatch in the table and its part of the panel's stacked bar.
    static QColor kindColor(PathKind kind);

protected:
    QVariant extraData(const CriticalPathRow& row, int column, int role) const override;
};

} // namespace cnp::wb
