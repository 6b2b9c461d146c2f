#pragma once
// The home page: the ablation across configurations, exactly as computeAblation() returns it.
//  - step time (median, 95% CI error bars) or throughput per configuration, with speedup labels;
//  - a waterfall of the incremental gains from the first to the last configuration;
//  - stacked mean-step breakdown bars (compute / exposed communication / memory / idle, overlap marked);
//  - the attribution of each configuration's step-time delta to categories and idle;
//  - the table of every number (AblationTableModel).
// The study (metrics/AblationStudies.h: a workspace may hold several, e.g. a synthetic 16-GPU study and a
// real single-GPU ablation) is chosen in the Study box, on a row of its own shown when there is more
// than one; by default the
// newest study. Configurations of one study are never compared with another's. Baseline, metric,
// configuration order and the compared figure (traced or log-reported step time) are selectable; the metric
// choice persists in QSettings, the order as the workspace's plan order and the figure as its
// `ablation_source`, the MFU inputs (MfuInputsBar) as its mfu_* meta keys. The analysis' warnings (profiler
// overhead, too few steps, not in the plan) are shown under the controls. Clicking a configuration's bar (or
// a waterfall step) opens Compare against the previous configuration. computeAblation() runs on a worker
// thread; results of superseded requests are dropped.
#include "WorkbenchPage.h"
#include "requests/AblationRequest.h"

#include <QStringList>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;
class QCPBars;
class QCPErrorBars;
class QBrush;

class QHBoxLayout;
class QSplitter;

namespace cnp::wb {

class AblationTableModel;
class MfuInputsBar;
class ChartView;
struct TimeScale;

class AblationPage : public WorkbenchPage {
    Q_OBJECT
public:
    enum class Metric { StepTime = 0, Throughput = 1 };
    explicit AblationPage(WorkspaceSession* session, QWidget* parent = nullptr);

    const AblationResult& result() const { return result_; }
    Metric shownMetric() const;
    void setMetric(Metric m);
    void setBaseline(const QString& config);
    // Compares the runs of study `name` (empty: the default, the newest study).
    void setStudy(const QString& name);
    QComboBox* studyBox() const { return studyBox_; }
    // Compares `configs` in this order and stores it as the workspace's plan order (the Configurations
    // dialog: the user's choice for the study).
    void setOrder(const QStringList& configs);
    // Compares `configs` in this order in this window only; the workspace is not written (the command
    // line's --configs: opening or screenshotting a shared workspace never changes it).
    void showOrder(const QStringList& configs);
    void setSource(AblationSource source);
    QString warningsText() const;
    // The label of the step prev -> cur on the waterfall and the attribution chart: what the step adds
    // ("+CkptOpt") when cur's name is prev's followed by "+…" (the plan's cumulative naming: "AC2+ACCL"
    // -> "AC2+ACCL+CompilerOpt" is "+CompilerOpt"), else cur's whole name. Tooltips say "prev → cur".
    static QString stepLabel(const QString& prev, const QString& cur);
    // The labels of the steps between `configs` (in order): stepLabel, except where that would show a
    // name twice in one chart (two steps adding "+CkptOpt", or a step label equal to another
    // configuration's name, issue 32.10): such a step shows its configuration's whole name.
    static QStringList stepLabels(const QStringList& configs);
    // Charts side by side (2 x 2) from this width of the chart area, one column below it (each chart
    // then keeps the width its category labels need; the column scrolls). 1000: side by side, each of
    // five configurations keeps ~80 px, so "AC2+ACCL+" / "CompilerOpt+" / "CkptOpt" stays whole (at 900
    // a 960 px page gave 70 px and "Comp…tOpt", tst_pagelayout pageTextWhole).
    static constexpr int kTwoColumnWidth = 1000;
    int chartColumns() const { return chartColumns_; }

    ChartView* valueChart() const { return valueChart_; }
    ChartView* waterfallChart() const { return waterfallChart_; }
    ChartView* breakdownChart() const { return breakdownChart_; }
    ChartView* attributionChart() const { return attributionChart_; }
    QCPBars* valueBars() const { return valueBars_; }
    QCPErrorBars* valueErrorBars() const { return valueErrors_; }
    AblationTableModel* tableModel() const { return table_; }
    MfuInputsBar* mfuInputsBar() const { return mfuBar_; }
    // Values drawn by the breakdown chart, by part name ("compute", "communication", "memory", "idle",
    // "overlap"): one value per configuration, in ms.
    QVector<double> breakdownValues(const QString& part) const;

protected:
    void refresh() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void recompute();
    // Enables the controls that write (source, order) only where the workspace can be written.
    void updateWritable();
    void showResult();
    void showStudies();
    // The configurations of the study shown (the order dialog's choices), the session's all without one.
    QStringList studyConfigurations() const;
    void showMessage(const QString& text);
    void drawValueChart();
    // Predict, then measure: the predictions of the configurations that state an expectation, computed in
    // the background after the ablation (each re-times the previous configuration's trace), then shown in
    // the table and as markers on the step-time bars.
    void predict();
    void addPredictionMarkers(ChartView* c, double nsPerUnit);
    void drawWaterfall();
    static QCPBars* waterfallBars(ChartView* c, const QBrush& brush, const QString& name);
    QString stepTooltip(const AblationConfig& prev, const AblationConfig& cur, const QString& from,
                        const QString& to) const;
    void addGainLabel(ChartView* c, int i, double y, const std::optional<RatioWithCi>& gain) const;
    void drawBreakdown();
    void drawAttribution();
    std::pair<double, double> addAttributionBars(ChartView* c, const TimeScale& scale,
                                                 const QStringList& fullLabels);
    void addAttributionTotals(ChartView* c, const TimeScale& scale, const QStringList& fullLabels);
    QColor configColor(const std::string& config) const;
    // Asks for Compare of configuration `configIndex` (in result_ order) against the one before it.
    void compareWithPrevious(int configIndex);
    QStringList configLabels() const;
    // Places the four charts in `columns` columns (1 or 2) and sizes their area's minimum height.
    void arrangeCharts(int columns);
    // The constructor's parts: the metric/baseline/order/source row, the charts over the table, and the
    // controls' connections.
    QHBoxLayout* buildControls();
    QWidget* buildStudyRow();
    QSplitter* buildChartsAndTable();
    void connectControls();

    QComboBox* studyBox_;
    QLabel* studyLabel_;
    QLabel* studyNote_;
    QWidget* studyRow_ = nullptr; // the three above; shown with several studies
    QComboBox* metricBox_;
    QComboBox* baselineBox_;
    QComboBox* sourceBox_;
    QPushButton* orderButton_ = nullptr;
    MfuInputsBar* mfuBar_;
    QLabel* summary_;
    QLabel* warnings_;
    QStackedWidget* stack_;
    QLabel* message_;
    ChartView* valueChart_;
    ChartView* waterfallChart_;
    ChartView* breakdownChart_;
    ChartView* attributionChart_;
    QWidget* chartArea_;
    QWidget* chartScroll_;
    QTableView* tableView_;
    static constexpr int kTableRows = 5; // whole rows the table shows at least
    AblationTableModel* table_;
    QCPBars* valueBars_ = nullptr;
    QCPErrorBars* valueErrors_ = nullptr;
    AblationResult result_;
    QString study_; // chosen by the user; empty: the default study
    QString baseline_;
    QStringList order_;
    quint64 requestId_ = 0;
    quint64 predictionId_ = 0;
    int chartColumns_ = 0;
};

} // namespace cnp::wb
