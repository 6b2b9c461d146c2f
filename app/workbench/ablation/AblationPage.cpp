#include "AblationPage.h"

#include "AblationTableModel.h"
#include "BackgroundTask.h"
#include "ChartPalette.h"
#include "ChartView.h"
#include "ConfigOrderDialog.h"
#include "MfuInputsBar.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"
#include "WorkspaceWriter.h"

#include "store/MetaKeys.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace cnp::wb {

namespace {
const char* kMetricKey = "charts/ablationMetric";
constexpr int kMinChartHeight = 230; // px: title, two-line labels, a legend and a readable plot

// A ratio without a CI (too few steps: docs/metrics.md) is marked as such, never as "n.s.", which
// claims a CI that includes 1.
QString ratioLabel(const RatioWithCi& r) {
    if (!r.hasCi)
        return UnitFormat::ratio(r.value) + QCoreApplication::translate("AblationPage", " (too few steps)");
    return UnitFormat::ratio(r.value) + (r.significant ? QString() : QStringLiteral(" n.s."));
}
} // namespace

AblationPage::AblationPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), studyBox_(new QComboBox), studyLabel_(new QLabel),
      studyNote_(new QLabel), metricBox_(new QComboBox), baselineBox_(new QComboBox),
      sourceBox_(new QComboBox), mfuBar_(new MfuInputsBar(session)), summary_(new QLabel),
      warnings_(new QLabel), stack_(new QStackedWidget), message_(new QLabel), valueChart_(new ChartView),
      waterfallChart_(new ChartView), breakdownChart_(new ChartView), attributionChart_(new ChartView),
      chartArea_(new QWidget), chartScroll_(nullptr), tableView_(new QTableView),
      table_(new AblationTableModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildStudyRow());
    layout->addLayout(buildControls());
    layout->addWidget(mfuBar_);
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    layout->addWidget(summary_); // its own row: the controls keep the page within 1024 px
    warnings_->setObjectName(QStringLiteral("ablationWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setTextFormat(Qt::RichText);
    warnings_->hide();
    layout->addWidget(warnings_);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    stack_->addWidget(message_);
    stack_->addWidget(buildChartsAndTable());
    layout->addWidget(stack_, 1);
    connectControls();
}

QHBoxLayout* AblationPage::buildControls() {
    auto* controls = new QHBoxLayout;
    metricBox_->setObjectName(QStringLiteral("metricBox"));
    metricBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    metricBox_->setMinimumContentsLength(18);
    metricBox_->addItem(tr("Step time (median, 95% CI)"));
    metricBox_->addItem(tr("Throughput"));
    metricBox_->setCurrentIndex(std::clamp(QSettings().value(kMetricKey, 0).toInt(), 0, 1));
    baselineBox_->setObjectName(QStringLiteral("baselineBox"));
    baselineBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    baselineBox_->setMinimumContentsLength(12);
    sourceBox_->setObjectName(QStringLiteral("sourceBox"));
    sourceBox_->addItem(tr("Traced"));
    sourceBox_->addItem(tr("From logs"));
    sourceBox_->setToolTip(tr("The compared figure: the traced step windows, or the step times the runs' own "
                              "logs reported (cnp run; cnp edit --throughput)"));
    orderButton_ = new QPushButton(tr("Configurations…"));
    orderButton_->setToolTip(tr("Choose which configurations to show and their order"));
    controls->addWidget(new QLabel(tr("Metric:")));
    controls->addWidget(metricBox_);
    controls->addSpacing(12);
    controls->addWidget(new QLabel(tr("Baseline:")));
    controls->addWidget(baselineBox_);
    controls->addSpacing(12);
    controls->addWidget(orderButton_);
    controls->addSpacing(12);
    controls->addWidget(sourceBox_);
    controls->addStretch(1);
    return controls;
}

// A row of its own (the controls' row has no room left at 1024 px), shown only when the workspace holds
// several studies: the chooser and what it means.
QWidget* AblationPage::buildStudyRow() {
    studyRow_ = new QWidget;
    studyRow_->setObjectName(QStringLiteral("studyRow"));
    auto* row = new QHBoxLayout(studyRow_);
    row->setContentsMargins(0, 0, 0, 0);
    studyBox_->setObjectName(QStringLiteral("studyBox"));
    studyBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    studyBox_->setMinimumContentsLength(18);
    studyBox_->setToolTip(tr("The study compared: a plan's configurations and their runs. Runs of different "
                             "studies are never compared with each other"));
    studyLabel_->setText(tr("Study:"));
    studyLabel_->setBuddy(studyBox_);
    studyNote_->setObjectName(QStringLiteral("studyNote"));
    studyNote_->setWordWrap(true); // never what widens the page past 1024 px
    row->addWidget(studyLabel_);
    row->addWidget(studyBox_);
    row->addSpacing(12);
    row->addWidget(studyNote_, 1);
    studyRow_->hide();
    return studyRow_;
}

QSplitter* AblationPage::buildChartsAndTable() {
    auto* grid = new QGridLayout(chartArea_);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(6);
    arrangeCharts(2);
    valueChart_->setObjectName(QStringLiteral("ablationValueChart"));
    waterfallChart_->setObjectName(QStringLiteral("ablationWaterfallChart"));
    breakdownChart_->setObjectName(QStringLiteral("ablationBreakdownChart"));
    attributionChart_->setObjectName(QStringLiteral("ablationAttributionChart"));

    tableView_->setModel(table_);
    tableView_->verticalHeader()->hide();
    tableView_->setAlternatingRowColors(true);
    tableView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tableView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tableView_->setWordWrap(false);

    auto* split = new QSplitter(Qt::Vertical);
    // Below kMinChartHeight per row of charts they scroll rather than squash their plots (1024x640).
    auto* chartScroll = new QScrollArea;
    chartScroll->setWidget(chartArea_);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The columns follow the scroll area's own width (not its viewport's, which a scroll bar narrows:
    // that would flip the arrangement back and forth).
    chartScroll_ = chartScroll;
    chartScroll->installEventFilter(this);
    split->addWidget(chartScroll);
    split->addWidget(tableView_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    // Five whole rows (a five-configuration study) beneath the header and the horizontal scroll bar the
    // columns need (issue 32.10: the bar hid half of the fourth, 3.5 rows at 1280x800).
    tableView_->setMinimumHeight(tableView_->horizontalHeader()->sizeHint().height() +
                                 kTableRows * tableView_->verticalHeader()->defaultSectionSize() +
                                 tableView_->horizontalScrollBar()->sizeHint().height() +
                                 2 * tableView_->frameWidth());
    split->setChildrenCollapsible(false);
    return split;
}

void AblationPage::connectControls() {
    connect(metricBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        QSettings().setValue(kMetricKey, i);
        if (!result_.configs.empty())
            showResult();
    });
    connect(studyBox_, &QComboBox::activated, this,
            [this](int i) { setStudy(studyBox_->itemData(i).toString()); });
    connect(baselineBox_, &QComboBox::activated, this,
            [this]() { setBaseline(baselineBox_->currentText()); });
    connect(sourceBox_, &QComboBox::activated, this,
            [this](int i) { setSource(i == 1 ? AblationSource::Log : AblationSource::Trace); });
    connect(orderButton_, &QPushButton::clicked, this, [this]() {
        ConfigOrderDialog d(studyConfigurations(), order_, this);
        if (d.exec() == QDialog::Accepted)
            setOrder(d.order());
    });
    connect(mfuBar_, &MfuInputsBar::stored, this, &AblationPage::recompute);
    connect(session(), &WorkspaceSession::workspaceChanged, this, [this]() {
        study_.clear();
        baseline_.clear();
        order_.clear();
        updateWritable();
    });
    updateWritable();
    // A bar of the value chart or a step of the waterfall opens Compare: that configuration vs the one
    // before it in the chart's order.
    for (ChartView* c : {valueChart_, waterfallChart_})
        connect(c, &QCustomPlot::plottableClick, this,
                [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
                    auto* bars = qobject_cast<QCPBars*>(p);
                    if (bars && index >= 0 && index < bars->dataCount())
                        compareWithPrevious(int(std::lround(bars->data()->at(index)->key)));
                });
}

QString AblationPage::stepLabel(const QString& prev, const QString& cur) {
    if (cur.size() > prev.size() + 1 && cur.startsWith(prev) && cur[prev.size()] == QLatin1Char('+'))
        return cur.mid(prev.size());
    return cur;
}

QStringList AblationPage::stepLabels(const QStringList& configs) {
    QStringList labels;
    for (int i = 1; i < configs.size(); ++i)
        labels << stepLabel(configs[i - 1], configs[i]);
    // A label another step also has, or that names another configuration, says too little: "+CkptOpt"
    // twice (AC2+ACCL+CompilerOpt -> +CkptOpt and +CompilerOpt -> +CkptOpt), or "+CompilerOpt" for a step
    // beside a configuration of that name. Those steps show their configuration's whole name.
    std::vector<bool> ambiguous(size_t(labels.size()));
    for (int i = 0; i < labels.size(); ++i)
        ambiguous[size_t(i)] =
            labels.count(labels[i]) > 1 || std::any_of(configs.begin(), configs.end(), [&](const QString& c) {
                return c == labels[i] && c != configs[i + 1];
            });
    for (int i = 0; i < labels.size(); ++i)
        if (ambiguous[size_t(i)])
            labels[i] = configs[i + 1];
    return labels;
}

void AblationPage::arrangeCharts(int columns) {
    if (columns == chartColumns_)
        return;
    chartColumns_ = columns;
    auto* grid = static_cast<QGridLayout*>(chartArea_->layout());
    ChartView* const order[] = {valueChart_, waterfallChart_, breakdownChart_, attributionChart_};
    for (ChartView* c : order)
        grid->removeWidget(c);
    for (int i = 0; i < 4; ++i)
        grid->addWidget(order[i], i / columns, i % columns);
    for (int r = 0; r < 4; ++r)
        grid->setRowStretch(r, r < 4 / columns ? 1 : 0);
    for (int col = 0; col < 2; ++col)
        grid->setColumnStretch(col, col < columns ? 1 : 0);
    const int rows = 4 / columns;
    chartArea_->setMinimumHeight(rows * kMinChartHeight + (rows - 1) * grid->spacing());
}

bool AblationPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == chartScroll_ && event->type() == QEvent::Resize)
        arrangeCharts(chartScroll_->width() >= kTwoColumnWidth ? 2 : 1);
    return WorkbenchPage::eventFilter(watched, event);
}

void AblationPage::compareWithPrevious(int configIndex) {
    const auto& configs = result_.configs;
    if (configIndex <= 0 || configIndex >= int(configs.size()))
        return;
    const AblationConfig& prev = configs[size_t(configIndex - 1)];
    const AblationConfig& cur = configs[size_t(configIndex)];
    if (prev.runIds.empty() || cur.runIds.empty())
        return;
    emit compareRequested(prev.runIds.front(), cur.runIds.front());
}

AblationPage::Metric AblationPage::shownMetric() const {
    return Metric(metricBox_->currentIndex());
}
void AblationPage::setMetric(Metric m) {
    metricBox_->setCurrentIndex(int(m));
}

void AblationPage::setBaseline(const QString& config) {
    baseline_ = config;
    recompute();
}

void AblationPage::setStudy(const QString& name) {
    if (name == study_ && !result_.configs.empty())
        return;
    study_ = name;
    baseline_.clear(); // the other study's configurations mean nothing here
    order_.clear();
    recompute();
}

QStringList AblationPage::studyConfigurations() const {
    for (const auto& s : result_.studies)
        if (s.name == result_.study) {
            QStringList out;
            for (const auto& c : s.configs)
                out << QString::fromStdString(c);
            return out;
        }
    return session()->configurations();
}

void AblationPage::showOrder(const QStringList& configs) {
    order_ = configs;
    if (!order_.isEmpty() && !order_.contains(baseline_))
        baseline_.clear();
    recompute();
}

void AblationPage::setOrder(const QStringList& configs) {
    if (configs.isEmpty() || !session()->canWrite()) {
        showOrder(configs);
        return;
    }
    order_ = configs;
    if (!order_.contains(baseline_))
        baseline_.clear();
    std::vector<std::string> plan, study;
    for (const QString& c : configs)
        plan.push_back(c.toStdString());
    for (const QString& c : studyConfigurations())
        study.push_back(c.toStdString());
    // The chosen order becomes the study's part of the workspace's plan order (the other studies'
    // configurations keep their places); runs and colours follow it once stored.
    session()->writer()->submit(
        tr("Storing the configuration order"),
        [plan, study](Workspace& ws) { ws.setPlanOrder(mergeStudyOrder(ws.planOrder(), study, plan)); },
        [this](const QString& error) {
            if (!error.isEmpty()) {
                showMessage(tr("Cannot store the configuration order:\n%1").arg(error));
                return;
            }
            recompute();
        });
}

void AblationPage::setSource(AblationSource source) {
    session()->writer()->submit(
        tr("Storing the compared figure"),
        [source](Workspace& ws) { ws.setMeta(std::string(metakeys::kAblationSource), toString(source)); },
        [this](const QString& error) {
            if (!error.isEmpty())
                showMessage(tr("Cannot store the compared figure:\n%1").arg(error));
            else
                recompute();
        });
}

void AblationPage::updateWritable() {
    WorkspaceWriter::enableWhereWritable({sourceBox_, orderButton_}, session()->readOnlyReason());
}

QString AblationPage::warningsText() const {
    QStringList lines;
    if (!result_.notInPlan.empty()) {
        QStringList names;
        for (const auto& c : result_.notInPlan)
            names << QString::fromStdString(c).toHtmlEscaped();
        lines << tr("Not in the plan (not compared): %1").arg(names.join(QStringLiteral(", ")));
    }
    for (const auto& w : result_.warnings)
        lines << QStringLiteral("⚠ ") + QString::fromStdString(w.message).toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

void AblationPage::refresh() {
    // Forget choices that no longer exist in the workspace.
    const QStringList all = session()->configurations();
    if (!all.contains(baseline_))
        baseline_.clear();
    order_.erase(
        std::remove_if(order_.begin(), order_.end(), [&](const QString& c) { return !all.contains(c); }),
        order_.end());
    mfuBar_->load();
    recompute();
}

void AblationPage::showMessage(const QString& text) {
    // Nothing of an earlier workspace survives a message: no result, no baseline choices.
    result_ = {};
    table_->setResult(result_, session()->planOrder());
    baselineBox_->clear();
    message_->setText(text);
    stack_->setCurrentWidget(message_);
    summary_->clear();
    warnings_->hide();
}

void AblationPage::recompute() {
    const quint64 id = ++requestId_;
    ++predictionId_; // a prediction of the previous result is dropped
    if (!session()->isOpen()) {
        showMessage(tr("No workspace open.\nFile → New (Ctrl+N) or Open (Ctrl+O)."));
        markReady();
        return;
    }
    if (session()->runs().empty()) {
        showMessage(
            tr("This workspace has no runs yet.\nDrop trace files or folders on the window to ingest them."));
        markReady();
        return;
    }
    AblationOptions options;
    options.study = study_.toStdString();
    options.baseline = baseline_.toStdString();
    AblationSource source = AblationSource::Trace;
    try {
        source = workspaceAblationSource(*session()->workspace());
    } catch (const std::exception& e) {
        showMessage(tr("Cannot read the workspace:\n%1").arg(QString::fromUtf8(e.what())));
        markReady();
        return;
    }
    sourceBox_->setCurrentIndex(source == AblationSource::Log ? 1 : 0);
    options.source = source;
    for (const QString& c : order_)
        options.order.push_back(c.toStdString());
    const std::string path = session()->path().toStdString();
    summary_->setText(tr("<i>computing…</i>"));
    runInBackground<AblationResult>(
        this,
        [path, options]() mutable {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            // A study chosen before a reload that removed its runs: back to the default study.
            if (!options.study.empty()) {
                const auto studies = workspaceStudies(ws);
                if (std::none_of(studies.begin(), studies.end(),
                                 [&](const AblationStudy& s) { return s.name == options.study; }))
                    options.study.clear();
            }
            return computeAblation(ws, options);
        },
        [this, id](TaskOutcome<AblationResult>& o) {
            if (id != requestId_)
                return; // superseded
            if (!o.value) {
                showMessage(tr("Cannot compute the ablation:\n%1").arg(o.error));
                markReady();
                return;
            }
            result_ = std::move(*o.value);
            showResult();
            predict(); // marks the page ready once the predictions are drawn
        });
}

void AblationPage::predict() {
    const quint64 id = ++predictionId_;
    const std::string path = session()->path().toStdString();
    runInBackground<AblationPredictions>(
        this,
        [path, result = result_]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return predictAblation(ws, result);
        },
        [this, id](TaskOutcome<AblationPredictions>& o) {
            if (id != predictionId_)
                return; // superseded
            if (!o.value || (o.value->steps.empty() && o.value->notes.empty())) {
                markReady(); // nothing stated: the page stays as it is (an error leaves the ablation
                             // standing)
                return;
            }
            table_->setPredictions(*o.value);
            drawValueChart();
            QString notes;
            for (const std::string& n : o.value->notes)
                notes += (notes.isEmpty() ? QString() : QStringLiteral("<br>")) +
                         tr("Prediction: %1").arg(QString::fromStdString(n).toHtmlEscaped());
            if (!notes.isEmpty()) {
                warnings_->setText(warnings_->text() +
                                   (warnings_->text().isEmpty() ? QString() : QStringLiteral("<br>")) +
                                   notes);
                warnings_->setVisible(true);
            }
            markReady();
        });
}

void AblationPage::addPredictionMarkers(ChartView* c, double nsPerUnit) {
    QVector<double> keys, values;
    QStringList tips;
    for (int i = 0; i < int(result_.configs.size()); ++i) {
        const StepPrediction* p = table_->predictionOf(result_.configs[size_t(i)].config);
        if (!p)
            continue;
        keys << i;
        values << double(p->predictedStepNs) / nsPerUnit;
        tips
            << tr("<b>%1</b>: predicted %2 from %3's trace (%4)<br>measured %5: %6%7 off<br>biggest miss: %8")
                   .arg(QString::fromStdString(p->to).toHtmlEscaped(),
                        UnitFormat::duration(double(p->predictedStepNs)),
                        QString::fromStdString(p->from).toHtmlEscaped(),
                        QString::fromStdString(p->scenario).toHtmlEscaped(),
                        UnitFormat::duration(double(p->measuredStepNs)),
                        p->error >= 0 ? QStringLiteral("+") : QString(), UnitFormat::percent(p->error),
                        QString::fromStdString(p->missCategory).toHtmlEscaped());
    }
    if (keys.isEmpty())
        return;
    auto* g = new QCPGraph(c->xAxis, c->yAxis);
    g->setObjectName(QStringLiteral("predictedMarkers"));
    g->setName(tr("predicted from the previous configuration"));
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, ChartPalette::textColor(palette()),
                                       QColor(214, 40, 140), 11));
    g->setData(keys, values, true);
    ChartView::setPointTooltips(g, tips);
}

QColor AblationPage::configColor(const std::string& config) const {
    return ChartPalette::configurationColor(QString::fromStdString(config), session()->planOrder());
}

QStringList AblationPage::configLabels() const {
    QStringList labels;
    for (const auto& c : result_.configs)
        labels << QString::fromStdString(c.config);
    return labels;
}

// The Study box: every study of the workspace (newest first), shown only when there are several.
void AblationPage::showStudies() {
    QSignalBlocker b(studyBox_);
    studyBox_->clear();
    for (const auto& s : result_.studies) {
        const QString name = QString::fromStdString(s.name);
        const QString gpus = s.minWorldSize == s.maxWorldSize
                                 ? tr("%1 GPU").arg(s.maxWorldSize)
                                 : tr("%1–%2 GPU").arg(s.minWorldSize).arg(s.maxWorldSize);
        studyBox_->addItem(name, name);
        studyBox_->setItemData(studyBox_->count() - 1,
                               tr("%1: %2 runs of %3 configurations on %4 per run%5")
                                   .arg(name)
                                   .arg(s.runs.size())
                                   .arg(s.configs.size())
                                   .arg(gpus, s.synthetic ? tr(" (synthetic)") : QString()),
                               Qt::ToolTipRole);
    }
    studyBox_->setCurrentIndex(studyBox_->findData(QString::fromStdString(result_.study)));
    studyNote_->setText(
        tr("%1 studies in this workspace, never compared with each other").arg(result_.studies.size()));
    studyRow_->setVisible(result_.studies.size() > 1);
}

void AblationPage::showResult() {
    stack_->setCurrentIndex(1);
    showStudies();
    {
        QSignalBlocker b(baselineBox_);
        baselineBox_->clear();
        baselineBox_->addItems(configLabels());
        baselineBox_->setCurrentText(QString::fromStdString(result_.baseline));
    }
    table_->setResult(result_, session()->planOrder());
    std::vector<MfuBasis> bases;
    for (const auto& c : result_.configs)
        bases.push_back(c.mfuBasis);
    mfuBar_->setBasis(bases);
    const QString warnings = warningsText();
    warnings_->setText(warnings);
    warnings_->setVisible(!warnings.isEmpty());
    drawValueChart();
    drawWaterfall();
    drawBreakdown();
    drawAttribution();
    // One line summary: baseline and the fastest configuration, as computed by the analysis.
    if (!result_.configs.empty()) {
        const auto best =
            std::min_element(result_.configs.begin(), result_.configs.end(),
                             [](const auto& a, const auto& b) { return a.medianStepNs < b.medianStepNs; });
        const auto base = std::find_if(result_.configs.begin(), result_.configs.end(),
                                       [&](const auto& c) { return c.config == result_.baseline; });
        QString text =
            tr("Baseline <b>%1</b>: %2 median step")
                .arg(QString::fromStdString(result_.baseline).toHtmlEscaped(),
                     base != result_.configs.end() ? UnitFormat::duration(double(base->medianStepNs))
                                                   : QString());
        if (best != base)
            text += tr(" · fastest <b>%1</b>: %2, %3 vs baseline%4")
                        .arg(QString::fromStdString(best->config).toHtmlEscaped(),
                             UnitFormat::duration(double(best->medianStepNs)),
                             UnitFormat::ratio(best->speedupVsBaseline.value),
                             best->speedupVsBaseline.significant ? QString() : tr(" (not significant)"));
        summary_->setText(text);
    }
}

void AblationPage::drawValueChart() {
    ChartView* c = valueChart_;
    c->clearChart();
    const bool stepTime = shownMetric() == Metric::StepTime;
    const auto& configs = result_.configs;
    double maxNs = 0;
    for (const auto& k : configs)
        maxNs = std::max<double>(maxNs, double(k.ciHiNs));
    const TimeScale scale = UnitFormat::scaleFor(maxNs);
    const QString unit = configs.empty() ? QString() : QString::fromStdString(configs.front().throughputUnit);
    c->setTitle(stepTime ? tr("Median step time per configuration (95% CI)")
                         : tr("Throughput per configuration"));
    valueBars_ = new QCPBars(c->xAxis, c->yAxis);
    valueBars_->setName(stepTime ? tr("median step time") : tr("throughput"));
    valueBars_->setWidth(0.6);
    valueBars_->setPen(Qt::NoPen);
    QVector<double> keys, values, lo, hi;
    QStringList tips;
    double top = 0;
    for (int i = 0; i < int(configs.size()); ++i) {
        const AblationConfig& k = configs[size_t(i)];
        keys << i;
        if (stepTime) {
            values << double(k.medianStepNs) / scale.nsPerUnit;
            lo << double(k.medianStepNs - k.ciLoNs) / scale.nsPerUnit;
            hi << double(k.ciHiNs - k.medianStepNs) / scale.nsPerUnit;
            top = std::max(top, double(k.ciHiNs) / scale.nsPerUnit);
        } else {
            values << k.throughput;
            lo << k.throughput - k.throughputCiLo;
            hi << k.throughputCiHi - k.throughput;
            top = std::max(top, k.throughputCiHi);
        }
        tips << tr("<b>%1</b><br>median step %2<br>95% CI %3 – %4<br>throughput %5<br>%6 step(s) from %7 "
                   "run(s)")
                        .arg(QString::fromStdString(k.config).toHtmlEscaped(),
                             UnitFormat::durationExact(k.medianStepNs), UnitFormat::durationExact(k.ciLoNs),
                             UnitFormat::durationExact(k.ciHiNs),
                             UnitFormat::rate(k.throughput, QString::fromStdString(k.throughputUnit)))
                        .arg(k.stepTimesNs.size())
                        .arg(k.runs.size()) +
                    (i > 0 ? tr("<br><i>Click: compare with %1</i>")
                                 .arg(QString::fromStdString(configs[size_t(i - 1)].config).toHtmlEscaped())
                           : QString());
    }
    valueBars_->setData(keys, values, true);
    ChartView::setPointTooltips(valueBars_, tips);
    // One colour per configuration: QCPBars has one brush, so colour each bar with its own QCPBars
    // overlay that shares the key (the base bars keep the data the tests compare).
    valueBars_->setBrush(Qt::NoBrush);
    for (int i = 0; i < int(configs.size()); ++i) {
        auto* b = new QCPBars(c->xAxis, c->yAxis);
        b->setWidth(0.6);
        b->setPen(Qt::NoPen);
        b->setBrush(configColor(configs[size_t(i)].config));
        b->addData(i, values[i]);
        b->removeFromLegend();
        ChartView::setPointTooltips(b, {tips[i]});
    }
    valueBars_->removeFromLegend();
    valueErrors_ = new QCPErrorBars(c->xAxis, c->yAxis);
    valueErrors_->setDataPlottable(valueBars_);
    valueErrors_->setData(lo, hi);
    valueErrors_->setPen(QPen(ChartPalette::textColor(palette()), 1.5));
    valueErrors_->setWhiskerWidth(10);
    valueErrors_->removeFromLegend();
    for (int i = 0; i < int(configs.size()); ++i) {
        const AblationConfig& k = configs[size_t(i)];
        auto* t = new QCPItemText(c);
        t->position->setType(QCPItemPosition::ptPlotCoords);
        t->position->setCoords(i, (stepTime ? double(k.ciHiNs) / scale.nsPerUnit : values[i]) + top * 0.02);
        t->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        if (k.config == result_.baseline)
            t->setText(tr("baseline"));
        else
            ChartView::setFittedText(t, ratioLabel(k.speedupVsBaseline),
                                     UnitFormat::ratio(k.speedupVsBaseline.value));
        t->setColor(k.speedupVsBaseline.significant || k.config == result_.baseline
                        ? ChartPalette::textColor(palette())
                        : QColor(0x90, 0x90, 0x90));
        QFont f = ChartView::tickFont();
        f.setBold(true);
        t->setFont(f);
    }
    if (stepTime && result_.source == AblationSource::Trace)
        addPredictionMarkers(c, scale.nsPerUnit);
    ChartView::setLabelTicks(c->xAxis, configLabels());
    c->yAxis->setLabel(stepTime ? tr("median step time (%1)").arg(scale.suffix) : unit);
    c->yAxis->setRange(0, top * 1.15 + 1e-9);
    c->applyTheme();
    c->replot();
}

// One series of the waterfall: bars 0.6 wide without outline.
QCPBars* AblationPage::waterfallBars(ChartView* c, const QBrush& brush, const QString& name) {
    auto* bars = new QCPBars(c->xAxis, c->yAxis);
    bars->setWidth(0.6);
    bars->setPen(Qt::NoPen);
    bars->setBrush(brush);
    if (!name.isEmpty())
        bars->setName(name);
    return bars;
}

// A step's tooltip: from and to, their values, and the gain with its CI (and whether it is significant).
QString AblationPage::stepTooltip(const AblationConfig& prev, const AblationConfig& cur, const QString& from,
                                  const QString& to) const {
    const auto& g = cur.gainVsPrevious;
    return tr("<b>%1 → %2</b><br>%3 → %4<br>gain %5%6")
        .arg(QString::fromStdString(prev.config).toHtmlEscaped(),
             QString::fromStdString(cur.config).toHtmlEscaped(), from, to)
        .arg(g ? UnitFormat::ratioWithCi(g->value, g->hasCi, g->ci95.lo, g->ci95.hi) : QStringLiteral("—"))
        .arg(g && !g->significant ? tr(" — not significant") : QString());
}

// The gain's label above step `i` (at height `y`), in the text colour when significant, grey otherwise.
void AblationPage::addGainLabel(ChartView* c, int i, double y, const std::optional<RatioWithCi>& gain) const {
    auto* t = new QCPItemText(c);
    t->position->setType(QCPItemPosition::ptPlotCoords);
    t->position->setCoords(i, y);
    t->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    if (gain)
        ChartView::setFittedText(t, ratioLabel(*gain), UnitFormat::ratio(gain->value));
    t->setColor(gain && gain->significant ? ChartPalette::textColor(palette()) : QColor(0x90, 0x90, 0x90));
    t->setFont(ChartView::tickFont());
}

void AblationPage::drawWaterfall() {
    ChartView* c = waterfallChart_;
    c->clearChart();
    const bool stepTime = shownMetric() == Metric::StepTime;
    const auto& configs = result_.configs;
    c->setTitle(stepTime ? tr("Incremental gains (median step time)") : tr("Incremental gains (throughput)"));
    if (configs.empty()) {
        c->replot();
        return;
    }
    double maxNs = 0;
    for (const auto& k : configs)
        maxNs = std::max<double>(maxNs, double(k.medianStepNs));
    const TimeScale scale = UnitFormat::scaleFor(maxNs);
    auto value = [&](const AblationConfig& k) {
        return stepTime ? double(k.medianStepNs) / scale.nsPerUnit : k.throughput;
    };
    const QString unit = stepTime ? scale.suffix : QString::fromStdString(configs.front().throughputUnit);
    // An invisible base lifts each step's delta bar to the lower of its two values.
    auto* base = waterfallBars(c, Qt::NoBrush, QString());
    base->removeFromLegend();
    auto* totals = waterfallBars(c, QColor(0x70, 0x80, 0x90), tr("total"));
    auto* better = waterfallBars(c, ChartPalette::positiveDeltaColor(),
                                 stepTime ? tr("faster") : tr("higher throughput"));
    auto* worse = waterfallBars(c, ChartPalette::negativeDeltaColor(),
                                stepTime ? tr("slower") : tr("lower throughput"));
    // A step whose gain is not significant is a grey bar with an outline, so even a change of a pixel or
    // two shows as a bar under its grey label (issue 32.10: it had no bar, only floating text).
    auto* flat = waterfallBars(c, QColor(0x90, 0x90, 0x90), tr("not significant"));
    flat->setPen(QPen(QColor(0x90, 0x90, 0x90), 2));
    better->moveAbove(base);
    worse->moveAbove(base);
    flat->moveAbove(base);
    QStringList labels, fullLabels;
    QStringList totalTips, betterTips, worseTips, flatTips;
    const QStringList steps = stepLabels(configLabels());
    double top = 0;
    const int n = int(configs.size());
    labels << QString::fromStdString(configs.front().config);
    fullLabels << labels.back();
    totals->addData(0, value(configs.front()));
    totalTips << tr("<b>%1</b>: %2")
                     .arg(QString::fromStdString(configs.front().config).toHtmlEscaped(),
                          stepTime ? UnitFormat::durationExact(configs.front().medianStepNs)
                                   : UnitFormat::rate(configs.front().throughput, unit));
    top = value(configs.front());
    for (int i = 1; i < n; ++i) {
        const AblationConfig& prev = configs[size_t(i - 1)];
        const AblationConfig& cur = configs[size_t(i)];
        const double a = value(prev), b = value(cur);
        const bool improved = stepTime ? b < a : b > a;
        base->addData(i, std::min(a, b));
        const bool significant = cur.gainVsPrevious && cur.gainVsPrevious->significant;
        QCPBars* target = !significant ? flat : improved ? better : worse;
        target->addData(i, std::fabs(b - a));
        (!significant ? flatTips
         : improved   ? betterTips
                      : worseTips)
            << stepTooltip(
                   prev, cur,
                   stepTime ? UnitFormat::durationExact(prev.medianStepNs) : UnitFormat::rate(a, unit),
                   stepTime ? UnitFormat::durationExact(cur.medianStepNs) : UnitFormat::rate(b, unit));
        labels << steps[i - 1];
        fullLabels << QString::fromStdString(prev.config) + QStringLiteral(" → ") +
                          QString::fromStdString(cur.config);
        top = std::max({top, a, b});
        addGainLabel(c, i, std::max(a, b), cur.gainVsPrevious);
    }
    if (n > 1) {
        totals->addData(n, value(configs.back()));
        totalTips << tr("<b>%1</b> (last): %2 — %3 vs %4")
                         .arg(QString::fromStdString(configs.back().config).toHtmlEscaped(),
                              stepTime ? UnitFormat::durationExact(configs.back().medianStepNs)
                                       : UnitFormat::rate(configs.back().throughput, unit),
                              UnitFormat::ratio(configs.back().speedupVsBaseline.value),
                              QString::fromStdString(result_.baseline).toHtmlEscaped());
        labels << tr("end");
        fullLabels << QString::fromStdString(configs.back().config) + tr(" (end)");
    }
    ChartView::setPointTooltips(totals, totalTips);
    ChartView::setPointTooltips(better, betterTips);
    ChartView::setPointTooltips(worse, worseTips);
    ChartView::setPointTooltips(flat, flatTips);
    for (QCPBars* series : {better, worse, flat})
        if (series->data()->isEmpty())
            series->removeFromLegend();
    ChartView::setLabelTicks(c->xAxis, labels, fullLabels);
    c->yAxis->setLabel(stepTime ? tr("median step time (%1)").arg(unit) : unit);
    c->yAxis->setRange(0, top * 1.15 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

QVector<double> AblationPage::breakdownValues(const QString& part) const {
    for (int i = 0; i < breakdownChart_->plottableCount(); ++i) {
        auto* b = qobject_cast<QCPBars*>(breakdownChart_->plottable(i));
        if (b && b->property("part").toString() == part) {
            QVector<double> v;
            for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
                v << it->value;
            return v;
        }
    }
    return {};
}

void AblationPage::drawBreakdown() {
    ChartView* c = breakdownChart_;
    c->clearChart();
    c->setTitle(tr("Mean step breakdown"));
    const auto& configs = result_.configs;
    double maxNs = 0;
    for (const auto& k : configs)
        maxNs = std::max<double>(maxNs, double(k.meanStepNs));
    const TimeScale scale = UnitFormat::scaleFor(maxNs);
    struct Part {
        QString key, label;
        Ns BreakdownNs::*field;
    };
    const Part parts[] = {{QStringLiteral("compute"), tr("compute"), &BreakdownNs::compute},
                          {QStringLiteral("communication"), tr("exposed comm."), &BreakdownNs::communication},
                          {QStringLiteral("memory"), tr("memory"), &BreakdownNs::memory},
                          {QStringLiteral("idle"), tr("idle"), &BreakdownNs::idle}};
    QCPBars* below = nullptr;
    for (const Part& p : parts) {
        auto* b = new QCPBars(c->xAxis, c->yAxis);
        b->setProperty("part", p.key);
        b->setName(p.label);
        b->setWidth(0.55);
        b->setPen(Qt::NoPen);
        b->setBrush(ChartPalette::categoryColor(p.key));
        QStringList tips;
        for (int i = 0; i < int(configs.size()); ++i) {
            const Ns v = configs[size_t(i)].breakdownMeanNs.*(p.field);
            b->addData(i, double(v) / scale.nsPerUnit);
            tips << tr("<b>%1</b> — %2<br>%3 per step (mean)<br>%4 of the mean step")
                        .arg(QString::fromStdString(configs[size_t(i)].config).toHtmlEscaped(), p.label,
                             UnitFormat::durationExact(v),
                             configs[size_t(i)].meanStepNs > 0
                                 ? UnitFormat::percent(double(v) / double(configs[size_t(i)].meanStepNs))
                                 : QStringLiteral("—"));
        }
        ChartView::setPointTooltips(b, tips);
        if (below)
            b->moveAbove(below);
        below = b;
    }
    // Overlap (communication hidden under compute) beside each stack: it is part of `compute`, not
    // added to the sum, so it is drawn as its own hatched bar.
    auto* overlap = new QCPBars(c->xAxis, c->yAxis);
    overlap->setProperty("part", QStringLiteral("overlap"));
    overlap->setName(tr("overlap (comm. hidden under compute)"));
    overlap->setWidth(0.14);
    const QColor oc = ChartPalette::categoryColor(QStringLiteral("overlap"));
    overlap->setPen(QPen(oc, 1));
    overlap->setBrush(QBrush(oc, Qt::BDiagPattern));
    QStringList otips;
    bool anyOverlap = false;
    for (int i = 0; i < int(configs.size()); ++i) {
        const BreakdownNs& b = configs[size_t(i)].breakdownMeanNs;
        overlap->addData(i + 0.36, double(b.overlap) / scale.nsPerUnit);
        anyOverlap = anyOverlap || b.communicationTotal > 0;
        const auto f = b.overlapFraction();
        otips << tr("<b>%1</b> — overlap<br>%2 of communication hidden under compute<br>%3 of all "
                    "communication")
                     .arg(QString::fromStdString(configs[size_t(i)].config).toHtmlEscaped(),
                          UnitFormat::durationExact(b.overlap),
                          f ? UnitFormat::percent(*f) : tr("n/a (no communication)"));
    }
    ChartView::setPointTooltips(overlap, otips);
    if (!anyOverlap)
        overlap->removeFromLegend();
    ChartView::setLabelTicks(c->xAxis, configLabels());
    c->yAxis->setLabel(tr("mean step (%1)").arg(scale.suffix));
    c->yAxis->setRange(0, maxNs / scale.nsPerUnit * 1.08 + 1e-9);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

// One stacked bar per category and step between configurations; returns the stacks' {lowest, highest}
// value in the scale's unit.
std::pair<double, double> AblationPage::addAttributionBars(ChartView* c, const TimeScale& scale,
                                                           const QStringList& fullLabels) {
    const auto& configs = result_.configs;
    // One QCPBars per category in the analysis' category order; positive and negative parts stack
    // separately (QCPBars stacks by sign), so gains go down and losses go up.
    QCPBars* below = nullptr;
    std::vector<double> posSum(configs.size(), 0), negSum(configs.size(), 0);
    for (const std::string& cat : result_.categories) {
        bool any = false;
        for (size_t i = 1; i < configs.size(); ++i)
            if (configs[i].attributionVsPreviousNs)
                for (const auto& [n, v] : *configs[i].attributionVsPreviousNs)
                    any = any || (n == cat && v != 0);
        if (!any)
            continue;
        auto* b = new QCPBars(c->xAxis, c->yAxis);
        b->setName(QString::fromStdString(cat));
        b->setWidth(0.55);
        b->setPen(Qt::NoPen);
        b->setBrush(ChartPalette::categoryColor(QString::fromStdString(cat)));
        QStringList tips;
        for (size_t i = 1; i < configs.size(); ++i) {
            Ns v = 0;
            if (configs[i].attributionVsPreviousNs)
                for (const auto& [n, x] : *configs[i].attributionVsPreviousNs)
                    if (n == cat)
                        v = x;
            b->addData(double(i - 1), double(v) / scale.nsPerUnit);
            (v >= 0 ? posSum[i] : negSum[i]) += double(v) / scale.nsPerUnit;
            tips << tr("<b>%1</b> — %2<br>%3%4 per step (mean exclusive time)")
                        .arg(fullLabels[int(i - 1)].toHtmlEscaped(), QString::fromStdString(cat),
                             v > 0 ? QStringLiteral("+") : QString(), UnitFormat::durationExact(v));
        }
        ChartView::setPointTooltips(b, tips);
        if (below)
            b->moveAbove(below);
        below = b;
    }
    std::pair<double, double> range{0, 0};
    for (size_t i = 1; i < configs.size(); ++i) {
        range.first = std::min(range.first, negSum[i]);
        range.second = std::max(range.second, posSum[i]);
    }
    return range;
}

void AblationPage::addAttributionTotals(ChartView* c, const TimeScale& scale, const QStringList& fullLabels) {
    const auto& configs = result_.configs;
    // The total delta of the mean step as a marker with its value.
    QCPGraph* total = c->addGraph();
    total->setName(tr("total Δ mean step"));
    total->setLineStyle(QCPGraph::lsNone);
    total->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond,
                                           QPen(ChartPalette::textColor(palette()), 1.5),
                                           QBrush(ChartPalette::backgroundColor(palette())), 10));
    QStringList totalTips;
    for (size_t i = 1; i < configs.size(); ++i) {
        const Ns t = configs[i].attributionTotalNs;
        total->addData(double(i - 1), double(t) / scale.nsPerUnit);
        totalTips << tr("<b>%1</b><br>total Δ mean step %2%3")
                         .arg(fullLabels[int(i - 1)].toHtmlEscaped(), t > 0 ? QStringLiteral("+") : QString(),
                              UnitFormat::durationExact(t));
        auto* text = new QCPItemText(c);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(double(i - 1) + 0.32, double(t) / scale.nsPerUnit);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        text->setText((t > 0 ? QStringLiteral("+") : QString()) + UnitFormat::duration(double(t)));
        text->setColor(ChartPalette::textColor(palette()));
        text->setFont(ChartView::tickFont());
    }
    ChartView::setPointTooltips(total, totalTips);
}

void AblationPage::drawAttribution() {
    ChartView* c = attributionChart_;
    c->clearChart();
    c->setTitle(tr("Where each step's time changed (vs previous configuration)"));
    const auto& configs = result_.configs;
    double maxAbs = 0;
    for (const auto& k : configs)
        if (k.attributionVsPreviousNs)
            for (const auto& [cat, v] : *k.attributionVsPreviousNs)
                maxAbs = std::max<double>(maxAbs, std::fabs(double(v)));
    const TimeScale scale = UnitFormat::scaleFor(maxAbs);
    const QStringList labels = stepLabels(configLabels());
    QStringList fullLabels;
    for (size_t i = 1; i < configs.size(); ++i)
        fullLabels << QString::fromStdString(configs[i - 1].config) + QStringLiteral(" → ") +
                          QString::fromStdString(configs[i].config);
    const auto [negBottom, posTop] = addAttributionBars(c, scale, fullLabels);
    addAttributionTotals(c, scale, fullLabels);
    if (labels.isEmpty()) {
        c->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        auto* t = new QCPItemText(c);
        t->position->setType(QCPItemPosition::ptAxisRectRatio);
        t->position->setCoords(0.5, 0.5);
        t->setText(tr("Needs two or more configurations"));
        t->setColor(ChartPalette::textColor(palette()));
    } else {
        ChartView::setLabelTicks(c->xAxis, labels, fullLabels);
        c->xAxis->setRangeUpper(c->xAxis->range().upper + 0.45); // room for the total's label
    }
    c->yAxis->setLabel(tr("Δ per step (%1)").arg(scale.suffix));
    const double span = std::max(posTop - negBottom, 1e-9);
    c->yAxis->setRange(negBottom - span * 0.08, posTop + span * 0.08);
    c->placeLegendBelow();
    c->applyTheme();
    c->replot();
}

} // namespace cnp::wb
