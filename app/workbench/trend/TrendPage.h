#pragma once
// The Trend page: a release history (the folder `cnp history add` writes; docs/metrics.md, "Release
// history") per configuration and metric — each release's value with its 95% CI, the E-divisive change
// points marked with their shift (TrendChart), a table of the releases beneath (TrendTableModel; Enter or
// a click on a row rings that release in the chart), and, for the release chosen as "new", the verdict of
// `cnp check` against the releases before it (history/HistoryGate.h: the same window, change-point cut and
// gate). The history is read and the gate computed on worker threads (BackgroundTask); the page does not
// depend on the open workspace. A history that cannot be read is reported on the page and in the status
// bar, never as an exception.
#include "WorkbenchPage.h"
#include "history/HistoryTrend.h"
#include "metrics/ReleaseComparison.h"

#include <optional>

class QComboBox;
class QLabel;
class QTableView;

namespace cnp::wb {

class ElidedLabel;
class TrendChart;
class TrendTableModel;

class TrendPage : public WorkbenchPage {
    Q_OBJECT
public:
    explicit TrendPage(WorkspaceSession* session, QWidget* parent = nullptr);
    // Reads the history at `path` (its folder or its manifest) in the background and shows it.
    void openHistory(const QString& path);
    QString historyPath() const { return path_; }
    // The release whose verdict is shown (an index into the history's releases, >= 1), -1 for none.
    void setCandidate(int releaseIndex);
    int candidate() const;
    // Shows configuration `config` and metric `metric` ("step_time", "throughput", "mfu"); false when
    // the history has no such series.
    bool showSeries(const QString& config, const QString& metric);
    // Rings release `index` in the chart and selects its table row.
    void selectRelease(int index);

    const HistoryTrend& trend() const { return trend_; }
    const std::optional<ReleaseCheck>& lastCheck() const { return check_; }
    QString verdictText() const;
    TrendTableModel* model() const { return model_; }
    TrendChart* chart() const { return chart_; }
    QTableView* table() const { return table_; }
    QComboBox* configBox() const { return configBox_; }
    QComboBox* metricBox() const { return metricBox_; }
    QComboBox* candidateBox() const { return candidateBox_; }

protected:
    void refresh() override;

private:
    void loadHistory();
    void fillBoxes();
    void showCurrentSeries();
    void startCheck();
    void showCheck();
    void showMessage(const QString& text);
    void finishStep();
    const TrendSeries* currentSeries() const;

    QString path_, loadedPath_;
    HistoryTrend trend_;
    std::optional<ReleaseCheck> check_;
    QString checkError_;
    int loadGeneration_ = 0, checkGeneration_ = 0;
    int pending_ = 0; // background tasks whose result the page waits for before it is ready
    bool filling_ = false;
    ElidedLabel* header_;
    QComboBox* configBox_;
    QComboBox* metricBox_;
    QComboBox* candidateBox_;
    TrendChart* chart_;
    QLabel* verdict_;
    TrendTableModel* model_;
    QTableView* table_;
};

} // namespace cnp::wb
