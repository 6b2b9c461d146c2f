#pragma once
// The releases of a history for one configuration x metric (metrics/ReleaseTrend.h): one row per release
// in history order with its date and commit, the value and its 95% CI, the change from the release
// before, and the change point E-divisive put there (the shift of the segment means and p). Display text
// through UnitFormat; Qt::UserRole holds the raw number (ns, the throughput's unit, MFU as a fraction;
// NaN where the release lacks the configuration). No metric is computed here: change points and CIs come
// from the trend.
#include "RowTableModel.h"
#include "history/HistoryManifest.h"
#include "metrics/ReleaseTrend.h"

#include <vector>

namespace cnp::wb {

struct TrendRow {
    QString release, date, commit;
    bool present = false; // the release has this configuration and figure
    double value = 0, lo = 0, hi = 0;
    bool hasPrevious = false;
    double changeVsPrevious = 0; // value / the previous present value - 1
    bool changePoint = false;    // E-divisive: the first release of a new segment
    double shift = 0;            // mean after / mean before - 1
    double pValue = 1;
};

class TrendTableModel : public RowTableModel<TrendRow> {
    Q_OBJECT
public:
    enum Column {
        ReleaseColumn = 0,
        DateColumn,
        ValueColumn,
        CiLowColumn,
        CiHighColumn,
        ChangeColumn,
        ChangePointColumn,
        CommitColumn,
        ColumnCount
    };
    explicit TrendTableModel(QObject* parent = nullptr);
    // The rows of `series`; `releases` gives each release's date and commit (matched by name).
    void setSeries(const TrendSeries& series, const std::vector<HistoryEntry>& releases);
    void clear();
    // A value of `metric` ("step_time", "throughput", "mfu") in `unit` as the page shows it.
    static QString valueText(const QString& metric, const QString& unit, double value);
    // "+5.1%" / "-3.0%".
    static QString signedPercent(double fraction);
    // "shift +5.1% (p = 0.030)": the label of a change point.
    static QString changePointText(double shift, double pValue);

private:
    QString metric_, unit_;
};

} // namespace cnp::wb
