#include "RunPage.h"

#include "BackgroundTask.h"
#include "InsightsModel.h"
#include "RankTableModel.h"
#include "RunMetadataModel.h"
#include "WorkspaceSession.h"
#include "metrics/Insights.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace cnp::wb {

RunPage::RunPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), runBox_(new QComboBox), title_(new QLabel), checks_(new QLabel),
      metadata_(new RunMetadataModel(this)), ranks_(new RankTableModel(this)), metadataView_(new QTableView),
      rankView_(new QTableView) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    runBox_->setObjectName(QStringLiteral("runBox"));
    runBox_->setMinimumContentsLength(24);
    top->addWidget(runBox_);
    top->addWidget(title_, 1);
    layout->addLayout(top);
    checks_->setWordWrap(true);
    checks_->setTextFormat(Qt::RichText);
    layout->addWidget(checks_);
    auto* split = new QSplitter(Qt::Vertical);
    metadataView_->setModel(metadata_);
    metadataView_->verticalHeader()->hide();
    metadataView_->horizontalHeader()->setStretchLastSection(true);
    metadataView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    metadataView_->setWordWrap(false);
    metadataView_->verticalHeader()->setDefaultSectionSize(metadataView_->fontMetrics().height() + 8);
    rankView_->setModel(ranks_);
    rankView_->verticalHeader()->hide();
    rankView_->horizontalHeader()->setStretchLastSection(true);
    auto* rankBox = new QWidget;
    auto* rl = new QVBoxLayout(rankBox);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addWidget(
        new QLabel(tr("<b>Ranks</b> — clock offset applied at alignment and residual skew estimate")));
    rl->addWidget(rankView_);
    split->addWidget(metadataView_);
    split->addWidget(rankBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    connect(runBox_, &QComboBox::currentTextChanged, this, &RunPage::showRun);
}

QString RunPage::currentRun() const {
    return runBox_->currentText();
}

void RunPage::setSelectedRun(const QString& runName) {
    if (runName.isEmpty())
        return;
    wanted_ = runName;
    const int i = runBox_->findText(runName);
    if (i >= 0)
        runBox_->setCurrentIndex(i);
}

void RunPage::refresh() {
    const QString keep = wanted_.isEmpty() ? runBox_->currentText() : wanted_;
    QSignalBlocker block(runBox_);
    runBox_->clear();
    for (const auto& r : session()->runs())
        runBox_->addItem(QString::fromStdString(r.info.name));
    const int i = runBox_->findText(keep);
    runBox_->setCurrentIndex(i >= 0 ? i : 0);
    block.unblock();
    showRun(runBox_->currentText());
    markReady();
}

void RunPage::showRun(const QString& name) {
    const RunRecord* run = session()->findRun(name);
    if (!run) {
        metadata_->clear();
        ranks_->setRanks({});
        title_->setText(session()->isOpen()
                            ? tr("No runs yet — drop trace files on the window to ingest them")
                            : tr("No workspace open (File → Open or New)"));
        checks_->clear();
        return;
    }
    wanted_ = name;
    metadata_->setRun(*run);
    metadataView_->resizeColumnToContents(0);
    std::vector<RankInfo> ranks;
    try {
        ranks = RankTableModel::readRanks(*session()->workspace(), run->id);
    } catch (const std::exception&) {
    }
    ranks_->setRanks(std::move(ranks));
    rankView_->resizeColumnsToContents();
    title_->setText(QStringLiteral("<b>%1</b> &nbsp; configuration <b>%2</b> &nbsp; %3 rank(s), %4")
                        .arg(QString::fromStdString(run->info.name).toHtmlEscaped(),
                             QString::fromStdString(run->info.config).toHtmlEscaped())
                        .arg(run->rankCount)
                        .arg(run->info.synthetic ? tr("synthetic data") : tr("real measurement")));
    QStringList notes;
    if (run->info.synthetic)
        notes << tr("<span style='color:#c06000'>⚠ Synthetic run: generated data, not a measurement.</span>");
    if (run->info.skipped.count > 0)
        notes << tr("⚠ %1 event(s) were skipped at ingest; the first: %2")
                     .arg(run->info.skipped.count)
                     .arg(QString::fromStdString(run->info.skipped.firstReason).toHtmlEscaped());
    checks_->setText(notes.join(QStringLiteral("<br>")));
    checks_->setVisible(!notes.isEmpty());
    // Environment checks: the analysis' release-note insights on this run's metadata (worker thread).
    const quint64 id = ++checksRequest_;
    runInBackground<std::vector<Insight>>(
        this,
        [path = session()->path().toStdString(), name = run->info.name]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return computeInsights(ws, name);
        },
        [this, id, notes](TaskOutcome<std::vector<Insight>>& o) {
            if (id != checksRequest_ || !o.value)
                return;
            QStringList lines = notes;
            int envChecks = 0;
            for (const Insight& in : *o.value) {
                if (in.id.rfind("release-notes", 0) != 0)
                    continue;
                ++envChecks;
                lines << QStringLiteral("<span style='color:%1'>●</span> <b>%2</b> — %3")
                             .arg(InsightsModel::severityColor(in.severity).name(),
                                  QString::fromStdString(in.title).toHtmlEscaped(),
                                  QString::fromStdString(in.explanation).toHtmlEscaped());
            }
            if (envChecks == 0)
                lines << tr("<span style='color:#2e9d4a'>✔</span> Environment checks: no known-issue "
                            "settings or versions found in this run's metadata.");
            checks_->setText(lines.join(QStringLiteral("<br>")));
            checks_->setVisible(true);
        });
}

} // namespace cnp::wb
