#include "TrendPage.h"

#include "BackgroundTask.h"
#include "ElidedLabel.h"
#include "TrendChart.h"
#include "TrendTableModel.h"
#include "UnitFormat.h"
#include "history/HistoryGate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace cnp::wb {
namespace {

constexpr qsizetype kMaxKernelChars = 48;

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

// One check as a line: "Base step_time +5.10% [+3.2%, +7.0%] regression (26.01 .. 26.04); moved most: …".
QString checkLine(const ConfigCheck& c) {
    const GateOutcome& o = c.outcome;
    QString line = QStringLiteral("%1 %2: ").arg(esc(c.config), esc(c.metric.name()));
    if (o.verdict == GateVerdict::CannotJudge) {
        line += QObject::tr("cannot judge (%1)").arg(esc(o.reason));
    } else {
        line +=
            QStringLiteral("%1 [%2, %3] ")
                .arg(TrendTableModel::signedPercent(o.ratio - 1), TrendTableModel::signedPercent(o.ci.lo - 1),
                     TrendTableModel::signedPercent(o.ci.hi - 1));
        const QString verdict = QString::fromLatin1(toString(o.verdict));
        line += o.verdict == GateVerdict::Regression ? QStringLiteral("<b>%1</b>").arg(verdict) : verdict;
    }
    if (!c.baselineReleases.empty())
        line +=
            QStringLiteral(" vs %1%2")
                .arg(esc(c.baselineReleases.front()),
                     c.baselineReleases.size() > 1 ? QStringLiteral(" … ") + esc(c.baselineReleases.back())
                                                   : QString());
    QStringList moved;
    for (const CategoryMove& m : c.moved)
        moved << QStringLiteral("%1 %2%3").arg(esc(m.category),
                                               m.deltaNs() >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                                               UnitFormat::duration(std::abs(m.deltaNs())));
    if (!moved.isEmpty())
        line += QObject::tr("; moved most: %1").arg(moved.join(QStringLiteral(", ")));
    QStringList kernels;
    for (const KernelMove& k : c.kernelsMoved) {
        // Kernel names run to kB: elided here, whole in the table of `cnp check`.
        QString name = QString::fromStdString(k.kernel);
        if (name.size() > kMaxKernelChars)
            name = name.left(kMaxKernelChars / 2) + QStringLiteral("…") + name.right(kMaxKernelChars / 2);
        QString text = QStringLiteral("%1 %2%3").arg(
            name.toHtmlEscaped(), k.deltaNs() >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
            UnitFormat::duration(std::abs(k.deltaNs())));
        if (k.hasShare)
            text += QObject::tr(" (%1 of the change)").arg(UnitFormat::percent(k.share));
        kernels << text;
    }
    if (!kernels.isEmpty())
        line += QObject::tr("; kernels: %1").arg(kernels.join(QStringLiteral(", ")));
    return line;
}

} // namespace

TrendPage::TrendPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), header_(new ElidedLabel), configBox_(new QComboBox),
      metricBox_(new QComboBox), candidateBox_(new QComboBox), chart_(new TrendChart), verdict_(new QLabel),
      model_(new TrendTableModel(this)), table_(new QTableView) {
    auto* layout = new QVBoxLayout(this);
    header_->setObjectName(QStringLiteral("trendHeader"));
    layout->addWidget(header_);
    auto* bar = new QHBoxLayout;
    configBox_->setObjectName(QStringLiteral("trendConfigBox"));
    metricBox_->setObjectName(QStringLiteral("trendMetricBox"));
    candidateBox_->setObjectName(QStringLiteral("trendCandidateBox"));
    configBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    configBox_->setMinimumContentsLength(12);
    candidateBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    candidateBox_->setMinimumContentsLength(10);
    metricBox_->addItem(tr("Step time"), QStringLiteral("step_time"));
    metricBox_->addItem(tr("Throughput"), QStringLiteral("throughput"));
    metricBox_->addItem(tr("MFU"), QStringLiteral("mfu"));
    auto* configLabel = new QLabel(tr("&Configuration:"));
    configLabel->setBuddy(configBox_);
    auto* metricLabel = new QLabel(tr("&Metric:"));
    metricLabel->setBuddy(metricBox_);
    auto* candidateLabel = new QLabel(tr("&New release:"));
    candidateLabel->setBuddy(candidateBox_);
    candidateBox_->setToolTip(tr("The release `cnp check` judges against the releases before it"));
    bar->addWidget(configLabel);
    bar->addWidget(configBox_, 1);
    bar->addWidget(metricLabel);
    bar->addWidget(metricBox_);
    bar->addWidget(candidateLabel);
    bar->addWidget(candidateBox_, 1);
    layout->addLayout(bar);
    verdict_->setObjectName(QStringLiteral("trendVerdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_->setObjectName(QStringLiteral("trendTable"));
    table_->setModel(model_);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    auto* lower = new QWidget;
    auto* ll = new QVBoxLayout(lower);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(verdict_);
    ll->addWidget(table_, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(chart_);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(configBox_, &QComboBox::currentIndexChanged, this, [this]() {
        if (filling_)
            return;
        showCurrentSeries();
        showCheck();
    });
    connect(metricBox_, &QComboBox::currentIndexChanged, this, [this]() {
        if (filling_)
            return;
        showCurrentSeries();
        startCheck();
    });
    connect(candidateBox_, &QComboBox::currentIndexChanged, this, [this]() {
        if (filling_)
            return;
        if (candidate() >= 0)
            selectRelease(candidate());
        startCheck();
    });
    // Enter (activated) or a click on a release's row rings it in the chart.
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& i) { selectRelease(i.row()); });
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) { selectRelease(i.row()); });
    showMessage(tr("No history open: File → Open History… (or cnp-workbench --history DIR) opens a folder "
                   "written by `cnp history add`."));
}

void TrendPage::openHistory(const QString& path) {
    path_ = path;
    loadedPath_.clear();
    markStale(); // reloads now when visible, else when next shown
}

void TrendPage::refresh() {
    if (path_.isEmpty()) {
        markReady();
        return;
    }
    if (path_ != loadedPath_) {
        loadHistory();
        return;
    }
    showCurrentSeries(); // a theme change: redraw in the new colours
    showCheck();
    if (pending_ == 0)
        markReady();
}

void TrendPage::showMessage(const QString& text) {
    header_->setFullText(text);
    model_->clear();
    chart_->clearSeries(QString());
    verdict_->clear();
}

void TrendPage::finishStep() {
    if (--pending_ == 0)
        markReady();
}

void TrendPage::loadHistory() {
    const int generation = ++loadGeneration_;
    const QString path = path_;
    ++pending_;
    header_->setFullText(tr("Reading the history %1…").arg(path));
    runInBackground<HistoryTrend>(
        this, [p = path.toStdString()]() { return loadHistoryTrend(p); },
        [this, generation, path](TaskOutcome<HistoryTrend>& o) {
            if (generation == loadGeneration_) {
                loadedPath_ = path;
                check_.reset();
                if (o.value) {
                    trend_ = std::move(*o.value);
                    fillBoxes();
                    showCurrentSeries();
                    startCheck();
                } else {
                    trend_ = {};
                    fillBoxes();
                    const QString error = o.error.isEmpty() ? tr("cancelled") : o.error;
                    showMessage(tr("Cannot read the history: %1").arg(error));
                    emit statusMessage(tr("Trend: %1").arg(error));
                }
            }
            finishStep();
        });
}

void TrendPage::fillBoxes() {
    filling_ = true;
    const QString config = configBox_->currentText();
    configBox_->clear();
    for (const TrendSeries& s : trend_.series)
        if (configBox_->findText(QString::fromStdString(s.config), Qt::MatchExactly) < 0)
            configBox_->addItem(QString::fromStdString(s.config));
    if (const int i = configBox_->findText(config, Qt::MatchExactly); i >= 0)
        configBox_->setCurrentIndex(i);
    candidateBox_->clear();
    candidateBox_->addItem(tr("(none)"), -1);
    for (std::size_t i = 1; i < trend_.releases.size(); ++i)
        candidateBox_->addItem(QString::fromStdString(trend_.releases[i].release), static_cast<int>(i));
    // The latest release is "new" by default: its verdict is the one a CI run of it gave.
    candidateBox_->setCurrentIndex(candidateBox_->count() - 1);
    filling_ = false;
}

const TrendSeries* TrendPage::currentSeries() const {
    const std::string config = configBox_->currentText().toStdString();
    const std::string metric = metricBox_->currentData().toString().toStdString();
    for (const TrendSeries& s : trend_.series)
        if (s.config == config && s.metric == metric)
            return &s;
    return nullptr;
}

bool TrendPage::showSeries(const QString& config, const QString& metric) {
    const int c = configBox_->findText(config, Qt::MatchExactly);
    const int m = metricBox_->findData(metric);
    if (c < 0 || m < 0)
        return false;
    filling_ = true;
    configBox_->setCurrentIndex(c);
    const bool metricChanged = metricBox_->currentIndex() != m;
    metricBox_->setCurrentIndex(m);
    filling_ = false;
    showCurrentSeries();
    if (metricChanged)
        startCheck();
    return true;
}

void TrendPage::showCurrentSeries() {
    header_->setFullText(tr("History %1 — %n release(s)", nullptr, static_cast<int>(trend_.releases.size()))
                             .arg(QString::fromStdString(trend_.folder)));
    const TrendSeries* s = currentSeries();
    const bool any =
        s && std::any_of(s->points.begin(), s->points.end(), [](const TrendPoint& p) { return p.present; });
    if (!any) {
        model_->clear();
        chart_->clearSeries(
            trend_.releases.empty()
                ? tr("The history has no release")
                : tr("No %1 figure for this configuration in any release").arg(metricBox_->currentText()));
        return;
    }
    model_->setSeries(*s, trend_.releases);
    int selected = chart_->selectedRelease();
    if (selected < 0 || selected >= static_cast<int>(s->points.size()))
        selected = candidate();
    chart_->setSeries(*s, selected);
    if (selected >= 0)
        table_->selectRow(selected);
}

void TrendPage::selectRelease(int index) {
    if (index < 0 || index >= model_->rowCount())
        return;
    chart_->setSelectedRelease(index);
    table_->selectRow(index);
}

int TrendPage::candidate() const {
    return candidateBox_->currentIndex() < 0 ? -1 : candidateBox_->currentData().toInt();
}

void TrendPage::setCandidate(int releaseIndex) {
    const int i = candidateBox_->findData(releaseIndex);
    candidateBox_->setCurrentIndex(i < 0 ? 0 : i);
}

void TrendPage::startCheck() {
    check_.reset();
    checkError_.clear();
    const int index = candidate();
    const auto metric = gateMetricFrom(metricBox_->currentData().toString().toStdString());
    if (index < 1 || !metric || loadedPath_.isEmpty()) {
        ++checkGeneration_;
        showCheck();
        return;
    }
    const int generation = ++checkGeneration_;
    ++pending_;
    showCheck();
    runInBackground<ReleaseCheck>(
        this,
        [p = loadedPath_.toStdString(), index, m = *metric]() {
            const HistoryManifest history = HistoryManifest::open(p);
            return checkHistoryRelease(history, static_cast<std::size_t>(index), kDefaultGateWindow, {m},
                                       GateOptions{});
        },
        [this, generation](TaskOutcome<ReleaseCheck>& o) {
            if (generation == checkGeneration_) {
                if (o.value)
                    check_ = std::move(*o.value);
                else
                    checkError_ = o.error.isEmpty() ? tr("cancelled") : o.error;
                showCheck();
            }
            finishStep();
        });
}

void TrendPage::showCheck() {
    const int index = candidate();
    verdict_->setToolTip(QString());
    if (trend_.releases.size() < 2) {
        verdict_->setText(tr("A verdict needs two releases or more."));
        return;
    }
    if (index < 1) {
        verdict_->setText(
            tr("Choose a new release for `cnp check`'s verdict against the releases before it."));
        return;
    }
    const QString name = esc(trend_.releases[static_cast<std::size_t>(index)].release);
    if (!checkError_.isEmpty()) {
        verdict_->setText(tr("<b>%1</b>: cannot check (%2)").arg(name, checkError_.toHtmlEscaped()));
        return;
    }
    if (!check_) {
        verdict_->setText(tr("Checking %1 against the releases before it…").arg(name));
        return;
    }
    const int code = check_->exitCode();
    const QString outcome = code == 0   ? tr("no significant change beyond 2%")
                            : code == 1 ? tr("<b>REGRESSION</b>")
                                        : tr("cannot judge");
    QStringList lines{tr("<b>%1</b> as new release, `cnp check` (tolerance 2%, window %2): %3 (exit %4)")
                          .arg(name)
                          .arg(kDefaultGateWindow)
                          .arg(outcome)
                          .arg(code)};
    // The shown configuration's check on the page, every configuration's in the tooltip: five long lines
    // of kernel names would take the table's room at 1024 x 640.
    const std::string config = configBox_->currentText().toStdString();
    QStringList all = lines;
    for (const ConfigCheck& c : check_->checks) {
        all << checkLine(c);
        if (c.config == config)
            lines << QStringLiteral("▶ ") + checkLine(c);
    }
    for (const std::string& p : check_->problems) {
        lines << tr("cannot judge: %1").arg(esc(p));
        all << tr("cannot judge: %1").arg(esc(p));
    }
    if (check_->checks.size() > 1)
        lines << tr("(every configuration's line: hover here)");
    verdict_->setToolTip(all.join(QStringLiteral("<br>")));
    verdict_->setText(lines.join(QStringLiteral("<br>")));
}

QString TrendPage::verdictText() const {
    return verdict_->text();
}

} // namespace cnp::wb
