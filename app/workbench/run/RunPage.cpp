#include "RunPage.h"

#include "BackgroundTask.h"
#include "InsightsModel.h"
#include "RankTableModel.h"
#include "RunKind.h"
#include "RunMetadataModel.h"
#include "RunPicker.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"
#include "metrics/OrphanTotals.h"
#include "requests/ClockAlignmentRequest.h"
#include "requests/CollectivesRequest.h"
#include "requests/InsightsRequest.h"
#include "requests/WorkspaceCategories.h"

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
      orphans_(new QLabel), metadata_(new RunMetadataModel(this)), ranks_(new RankTableModel(this)),
      metadataView_(new QTableView), rankView_(new QTableView) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    runBox_->setObjectName(QStringLiteral("runBox"));
    runBox_->setMinimumContentsLength(24);
    top->addWidget(runBox_);
    title_->setWordWrap(true); // a long run name wraps rather than widening the window past 1024 px
    top->addWidget(title_, 1);
    layout->addLayout(top);
    checks_->setWordWrap(true);
    checks_->setTextFormat(Qt::RichText);
    layout->addWidget(checks_);
    orphans_->setObjectName(QStringLiteral("runOrphans"));
    orphans_->setWordWrap(true);
    orphans_->setTextFormat(Qt::RichText);
    orphans_->hide();
    layout->addWidget(orphans_);
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
    connect(runBox_, &QComboBox::currentIndexChanged, this, [this]() { showRun(currentRunId(runBox_)); });
}

QString RunPage::checksText() const {
    return checks_->text();
}

QString RunPage::orphanText() const {
    return orphans_->text();
}

RunId RunPage::currentRun() const {
    return currentRunId(runBox_);
}

void RunPage::setSelectedRun(RunId runId) {
    if (runId == RunId())
        return;
    wanted_ = runId;
    selectRunItem(runBox_, runId);
}

void RunPage::refresh() {
    const RunId keep = wanted_ == RunId() ? currentRunId(runBox_) : wanted_;
    listRuns(runBox_, session()->runs(), keep);
    showRun(currentRunId(runBox_));
    markReady();
}

void RunPage::showRun(RunId runId) {
    const RunRecord* run = session()->findRun(runId);
    if (!run) {
        metadata_->clear();
        ranks_->setRanks({});
        title_->setText(session()->isOpen()
                            ? tr("No runs yet — drop trace files on the window to ingest them")
                            : tr("No workspace open (File → Open or New)"));
        checks_->clear();
        orphans_->clear();
        orphans_->hide();
        return;
    }
    wanted_ = runId;
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
                        .arg(runKindPhrase(runKindOf(run->info))));
    QStringList notes;
    if (run->info.synthetic)
        notes << tr("<span style='color:#c06000'>⚠ Synthetic run: generated data, not a measurement.</span>");
    if (run->info.skipped.count > 0)
        notes << tr("⚠ %1 event(s) were skipped at ingest; the first: %2")
                     .arg(run->info.skipped.count)
                     .arg(QString::fromStdString(run->info.skipped.firstReason).toHtmlEscaped());
    checks_->setText(notes.join(QStringLiteral("<br>")));
    checks_->setVisible(!notes.isEmpty());
    // Environment checks (the analysis' release-note insights on this run's metadata) and the run's
    // orphan GPU work (the per-rank figures of `cnp stats`, summed by the analysis): one worker task.
    const quint64 id = ++checksRequest_;
    orphans_->hide();
    runInBackground<RunChecks>(
        this,
        [path = session()->path().toStdString(), runId, ranks = run->rankCount]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            RunChecks c;
            c.insights = computeInsights(ws, runId);
            try { // a workspace written before the summaries existed has no orphan figures
                c.orphans = orphanTotals(summaryReaderOf(ws, runId).ranks());
            } catch (const InputError&) {
            }
            try { // the clocks' agreement: the fit stored at ingest, else from the collectives now
                if (auto stored = storedClockAlignment(ws, runId)) {
                    c.clocks = std::move(*stored);
                    c.clocksStored = true;
                } else if (ranks > 1) {
                    c.clocks = computeCollectives(ws, runId).clocks;
                }
            } catch (const std::exception&) { // the other checks still shown
            }
            return c;
        },
        [this, id, notes](TaskOutcome<RunChecks>& o) {
            if (id != checksRequest_ || !o.value)
                return;
            showChecks(notes, *o.value);
        });
}

void RunPage::showChecks(const QStringList& notes, const RunChecks& c) {
    QStringList lines = notes;
    int envChecks = 0;
    for (const Insight& in : c.insights) {
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
    if (c.clocks.hosts.size() > 1)
        lines << tr("<b>Clocks aligned to ±%1</b> across %2 hosts (±%3 with each host's offset and drift "
                    "removed), %4 from the run's collectives: no order across hosts is finer "
                    "than that.")
                     .arg(UnitFormat::duration(double(c.clocks.storedErrorNs)))
                     .arg(c.clocks.hosts.size())
                     .arg(UnitFormat::duration(double(c.clocks.fittedErrorNs)))
                     .arg(c.clocksStored ? tr("fitted at ingest") : tr("checked on opening"));
    checks_->setText(lines.join(QStringLiteral("<br>")));
    checks_->setVisible(true);
    if (!c.orphans) {
        orphans_->hide();
        return;
    }
    const OrphanTotals& t = *c.orphans;
    if (t.count > 0)
        orphans_->setText(
            tr("<b>Orphan GPU work</b> (launched before the capture began, its launch call "
               "is not in the trace): %1 %2, %3 busy on %4 of %5 rank(s). It is inside the "
               "GPU window and the breakdown; <tt>cnp stats --exclude-orphans</tt> leaves it out.")
                .arg(UnitFormat::integer(t.count))
                .arg(t.count == 1 ? tr("activity") : tr("activities"))
                .arg(UnitFormat::duration(double(t.busyNs)))
                .arg(t.ranksWithAny)
                .arg(t.ranks));
    else
        orphans_->setText(tr("<span style='color:#2e9d4a'>✔</span> No orphan GPU work: every kernel, copy "
                             "and memset has its launch call in the trace."));
    orphans_->setVisible(true);
}

} // namespace cnp::wb
