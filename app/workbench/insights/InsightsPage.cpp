#include "InsightsPage.h"

#include "BackgroundTask.h"
#include "InsightsModel.h"
#include "RunPicker.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace cnp::wb {

InsightsPage::InsightsPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), runBox_(new QComboBox), status_(new QLabel), view_(new QTreeView),
      details_(new QTextBrowser), model_(new InsightsModel(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    runBox_->setMinimumContentsLength(16);
    top->addWidget(runBox_);
    top->addWidget(status_, 1);
    layout->addLayout(top);
    view_->setModel(model_);
    view_->setAlternatingRowColors(true);
    view_->setUniformRowHeights(true);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(InsightsModel::TitleColumn, QHeaderView::Stretch);
    view_->header()->setSectionResizeMode(InsightsModel::SeverityColumn, QHeaderView::ResizeToContents);
    view_->header()->setSectionResizeMode(InsightsModel::WhereColumn, QHeaderView::ResizeToContents);
    details_->setOpenLinks(false);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(runBox_, &QComboBox::activated, this, [this]() {
        wanted_ = currentRunId(runBox_);
        load();
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this, &InsightsPage::showDetails);
    // activated: a double-click, or Enter on the current evidence (issue 32.6).
    connect(view_, &QTreeView::activated, this, [this](const QModelIndex& i) {
        const InsightEvidence* e = model_->evidenceAt(i);
        if (e && e->start >= 0 && e->end >= e->start)
            emit timelineJumpRequested(currentRunId(runBox_), RankId(std::max(0, e->rank)), e->start, e->end);
    });
}

void InsightsPage::setSelectedRun(RunId runId) {
    if (pickWantedRun(runBox_, wanted_, runId) && isVisible())
        load();
}

void InsightsPage::refresh() {
    listRuns(runBox_, session()->runs(), wanted_);
    load();
}

void InsightsPage::load() {
    const quint64 id = ++request_;
    const RunId run = currentRunId(runBox_);
    if (!session()->findRun(run)) {
        model_->setInsights({});
        details_->clear();
        status_->setText(session()->isOpen() ? tr("No runs in this workspace.") : tr("No workspace open."));
        markReady();
        return;
    }
    details_->clear(); // the findings of the previous run must not stay beside another run's name
    status_->setText(tr("Analysing…"));
    const std::string path = session()->path().toStdString();
    runInBackground<std::vector<Insight>>(
        this,
        [path, run]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return computeInsights(ws, run);
        },
        [this, id](TaskOutcome<std::vector<Insight>>& o) {
            if (id != request_)
                return;
            if (!o.value) {
                model_->setInsights({});
                status_->setText(tr("Cannot compute insights: %1").arg(o.error));
                markReady();
                return;
            }
            int counts[3] = {0, 0, 0};
            for (const Insight& in : *o.value)
                ++counts[int(in.severity)];
            status_->setText(
                tr("%1 critical · %2 warning(s) · %3 note(s)").arg(counts[2]).arg(counts[1]).arg(counts[0]));
            model_->setInsights(std::move(*o.value));
            view_->expandAll();
            if (model_->rowCount() > 0)
                view_->setCurrentIndex(model_->index(0, 0));
            else
                details_->setHtml(
                    tr("<h3>No findings for this run</h3><p>The analysis' checks — GPU idle gaps, exposed "
                       "communication, compute/communication overlap, launch-bound short kernels, "
                       "pageable or synchronous copies, stragglers between ranks and known-issue "
                       "environment settings — found nothing to report.</p><p>Pick another run above or "
                       "in the workspace dock.</p>"));
            markReady();
        });
}

void InsightsPage::showDetails() {
    const QModelIndex i = view_->currentIndex();
    const Insight* in = model_->insightAt(i);
    if (!in) {
        details_->clear();
        return;
    }
    QString html = QStringLiteral("<h3 style='color:%1'>%2</h3><p>%3</p>")
                       .arg(InsightsModel::severityColor(in->severity).name(),
                            QString::fromStdString(in->title).toHtmlEscaped(),
                            QString::fromStdString(in->explanation).toHtmlEscaped());
    html += tr("<p><small>check <code>%1</code> · measured value %2</small></p>")
                .arg(QString::fromStdString(in->id).toHtmlEscaped())
                .arg(in->value, 0, 'g', 4);
    if (!in->evidence.empty()) {
        html += tr("<b>Evidence</b> (double-click an item with a time range, or press Enter on it, to see it "
                   "on the timeline)<ul>");
        for (const InsightEvidence& e : in->evidence) {
            QString line = QString::fromStdString(e.detail).toHtmlEscaped();
            if (e.rank >= 0)
                line += tr(" — rank %1").arg(e.rank);
            if (e.stepIndex >= 0)
                line += tr(", step %1").arg(e.stepIndex);
            if (e.start >= 0 && e.end >= e.start)
                line += tr(", %1 long").arg(UnitFormat::duration(double(e.end - e.start)));
            for (const auto& k : e.kernels)
                line += QStringLiteral("<br><code>%1</code>").arg(QString::fromStdString(k).toHtmlEscaped());
            html += QStringLiteral("<li>%1</li>").arg(line);
        }
        html += QStringLiteral("</ul>");
    }
    details_->setHtml(html);
}

} // namespace cnp::wb
