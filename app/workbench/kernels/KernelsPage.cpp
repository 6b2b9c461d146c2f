#include "KernelsPage.h"

#include "BackgroundTask.h"
#include "DescendingFirstSort.h"
#include "KernelFilterProxy.h"
#include "KernelNameDelegate.h"
#include "KernelOccurrencesModel.h"
#include "KernelStatsModel.h"
#include "NameColumnSizer.h"
#include "RankTableModel.h"
#include "RunPicker.h"
#include "UnitFormat.h"
#include "WorkspaceSession.h"
#include "export/KernelStatsCsv.h"
#include "requests/WorkspaceCategories.h"
#include "store/RunTimeOrigin.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <set>
#include <utility>

namespace cnp::wb {

namespace {
constexpr std::size_t kMaxOccurrences = 20000;
}

KernelsPage::KernelsPage(WorkspaceSession* session, QWidget* parent)
    : WorkbenchPage(session, parent), runBox_(new QComboBox), rankBox_(new QComboBox),
      categoryBox_(new QComboBox), search_(new QLineEdit), status_(new QLabel), shown_(new QLabel),
      view_(new QTableView), occurrencesView_(new QTableView), model_(new KernelStatsModel(this)),
      proxy_(new KernelFilterProxy(KernelStatsModel::NameColumn, KernelStatsModel::CategoryColumn, this)),
      occurrences_(new KernelOccurrencesModel(this)) {
    auto* layout = new QVBoxLayout(this);
    QPushButton* copy = nullptr;
    QPushButton* exportButton = nullptr;
    buildControls(layout, copy, exportButton);
    layout->addWidget(buildTables(), 1);
    connectControls(copy, exportButton);
}

// The run/rank/category/search row, then the status row with the copy and export buttons.
void KernelsPage::buildControls(QVBoxLayout* layout, QPushButton*& copy, QPushButton*& exportButton) {
    auto* controls = new QHBoxLayout;
    // Combo boxes size to a short minimum (names elide) so the page fits 1024 px wide windows.
    for (QComboBox* box : {runBox_, categoryBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    controls->addWidget(new QLabel(tr("Run:")));
    controls->addWidget(runBox_);
    controls->addWidget(new QLabel(tr("Ranks:")));
    controls->addWidget(rankBox_);
    controls->addWidget(new QLabel(tr("Category:")));
    controls->addWidget(categoryBox_);
    search_->setPlaceholderText(tr("Search kernel names (regular expression)…"));
    search_->setClearButtonEnabled(true);
    search_->setObjectName(QStringLiteral("kernelSearch"));
    occurrencesView_->setObjectName(QStringLiteral("occurrences"));
    search_->setMinimumWidth(160); // never a stub
    controls->addWidget(search_, 1);
    copy = new QPushButton(tr("Copy"));
    copy->setToolTip(tr("Copy the selected rows as tab-separated text (Ctrl+C)"));
    exportButton = new QPushButton(tr("Export CSV…"));
    layout->addLayout(controls);
    auto* statusRow = new QHBoxLayout;
    status_->setWordWrap(true); // long totals wrap instead of widening the page
    statusRow->addWidget(status_, 1);
    shown_->setObjectName(QStringLiteral("kernelCount"));
    statusRow->addWidget(shown_);
    statusRow->addWidget(copy);
    statusRow->addWidget(exportButton);
    layout->addLayout(statusRow);
}

// The statistics table over the selected kernel's occurrences.
QSplitter* KernelsPage::buildTables() {
    proxy_->setSourceModel(model_);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    sortNumbersDescendingFirst(view_);
    view_->sortByColumn(KernelStatsModel::TotalColumn, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->verticalHeader()->hide();
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    NameColumnSizer::install(view_, KernelStatsModel::NameColumn); // names keep >= 260 px, the rest scrolls
    view_->setItemDelegateForColumn(KernelStatsModel::NameColumn, new KernelNameDelegate(view_));
    occurrencesView_->setModel(occurrences_);
    occurrencesView_->verticalHeader()->hide();
    occurrencesView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    occurrencesView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Every column as wide as its contents: a stretched last column put the shared-memory figures
    // half a screen away from their header at 1920 px.
    occurrencesView_->horizontalHeader()->setStretchLastSection(false);
    auto* occBox = new QWidget;
    auto* ol = new QVBoxLayout(occBox);
    ol->setContentsMargins(0, 0, 0, 0);
    auto* occTitle = new QLabel(tr("<b>Occurrences</b> of the selected kernel — double-click one (or Enter) "
                                   "to show it on the timeline"));
    ol->addWidget(occTitle);
    ol->addWidget(occurrencesView_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(occBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    return split;
}

void KernelsPage::connectControls(QPushButton* copy, QPushButton* exportButton) {
    connect(runBox_, &QComboBox::activated, this, [this]() {
        if (currentRunId(runBox_) == wanted_)
            return;
        wanted_ = currentRunId(runBox_);
        runChanged();
    });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(proxy_, signal, this, &KernelsPage::updateShownCount);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &KernelsPage::updateShownCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &KernelsPage::updateShownCount);
    connect(rankBox_, &QComboBox::activated, this, &KernelsPage::loadStats);
    connect(categoryBox_, &QComboBox::activated, this,
            [this]() { proxy_->setCategory(categoryBox_->currentData().toString()); });
    connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) {
        const bool ok = proxy_->setNamePattern(t);
        search_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d63b3b"));
        search_->setToolTip(ok ? QString() : tr("Not a valid regular expression"));
    });
    connect(copy, &QPushButton::clicked, this,
            [this]() { QApplication::clipboard()->setText(selectedRowsText()); });
    connect(exportButton, &QPushButton::clicked, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export kernel statistics"),
                                                          QStringLiteral("kernels.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty() && !exportCsv(path))
            QMessageBox::warning(this, tr("Export"), tr("%1: cannot write the file").arg(path));
    });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &KernelsPage::loadOccurrences);
    // activated: a double-click, or Enter on the current occurrence (issue 32.6).
    connect(occurrencesView_, &QTableView::activated, this, [this](const QModelIndex& i) {
        const KernelOccurrence& o = occurrences_->occurrences()[size_t(i.row())];
        emit timelineJumpRequested(currentRunId(runBox_), RankId(o.rank), o.start, o.end);
    });
}

void KernelsPage::setSelectedRun(RunId runId) {
    if (pickWantedRun(runBox_, wanted_, runId) && isVisible())
        runChanged();
}

void KernelsPage::runChanged() {
    // The name and category filters were chosen for the previous run's kernels.
    {
        const QSignalBlocker b(search_);
        search_->clear();
        search_->setStyleSheet(QString());
        search_->setToolTip(QString());
    }
    proxy_->setNamePattern(QString());
    categoryBox_->setCurrentIndex(0);
    proxy_->setCategory(QString());
    loadStats();
}

QString KernelsPage::shownCountText() const {
    return shown_->text();
}

void KernelsPage::updateShownCount() {
    const int all = model_->rowCount(), shown = proxy_->rowCount();
    shown_->setText(all == 0 ? QString() : tr("%1 of %2 kernels shown").arg(shown).arg(all));
}

void KernelsPage::refresh() {
    listRuns(runBox_, session()->runs(), wanted_);
    loadStats();
}

void KernelsPage::setCategoryFilter(const QString& category) {
    const int i = categoryBox_->findData(category);
    categoryBox_->setCurrentIndex(std::max(0, i));
    proxy_->setCategory(category);
}

void KernelsPage::setNameFilter(const QString& regex) {
    search_->setText(regex);
}

void KernelsPage::loadStats() {
    const quint64 id = ++statsRequest_;
    const RunRecord* run = session()->findRun(currentRunId(runBox_));
    if (!run) {
        model_->setRows({});
        occurrences_->setOccurrences({}, 0);
        status_->setText(session()->isOpen() ? tr("No runs in this workspace.") : tr("No workspace open."));
        markReady();
        return;
    }
    // Rank choices of this run (a few rows: GUI thread).
    const int keepRank = rankBox_->currentData().isValid() ? rankBox_->currentData().toInt() : -1;
    {
        QSignalBlocker b(rankBox_);
        rankBox_->clear();
        rankBox_->addItem(tr("All ranks"), -1);
        try {
            for (const RankInfo& r : RankTableModel::readRanks(*session()->workspace(), run->id))
                rankBox_->addItem(tr("Rank %1").arg(r.rank), r.rank);
        } catch (const std::exception&) {
        }
        rankBox_->setCurrentIndex(std::max(0, rankBox_->findData(keepRank)));
    }
    const int rank = rankBox_->currentData().toInt();
    const std::string path = session()->path().toStdString();
    const RunId runId = run->id;
    status_->setText(tr("Loading kernel statistics…"));
    runInBackground<std::vector<KernelStatRow>>(
        this,
        [path, runId, rank]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return summaryReaderOf(ws, runId).kernelStats(rank);
        },
        [this, id, rank](TaskOutcome<std::vector<KernelStatRow>>& o) {
            if (id != statsRequest_)
                return;
            statsRank_ = rank;
            if (!o.value) {
                model_->setRows({});
                status_->setText(tr("Cannot read kernel statistics: %1").arg(o.error));
                markReady();
                return;
            }
            std::set<std::string> cats;
            Ns total = 0;
            for (const auto& r : *o.value) {
                cats.insert(r.category);
                total += r.totalNs;
            }
            const QString keepCat = categoryBox_->currentData().toString();
            {
                QSignalBlocker b(categoryBox_);
                categoryBox_->clear();
                categoryBox_->addItem(tr("All categories"), QString());
                for (const auto& c : cats)
                    categoryBox_->addItem(QString::fromStdString(c), QString::fromStdString(c));
                categoryBox_->setCurrentIndex(std::max(0, categoryBox_->findData(keepCat)));
                proxy_->setCategory(categoryBox_->currentData().toString());
            }
            status_->setText(
                tr("%1 distinct kernels, %2 of kernel time in total (sum over the selected ranks)")
                    .arg(o.value->size())
                    .arg(UnitFormat::duration(double(total))));
            model_->setRows(std::move(*o.value));
            occurrences_->setOccurrences({}, 0);
            const quint64 occBefore = occRequest_;
            if (proxy_->rowCount() > 0)
                view_->setCurrentIndex(
                    proxy_->index(0, KernelStatsModel::NameColumn)); // lists its occurrences
            if (occRequest_ != occBefore)
                readyAfterOccurrences_ = true; // markReady() when they arrive
            else
                markReady();
        });
}

void KernelsPage::selectKernel(const QString& name) {
    for (int r = 0; r < proxy_->rowCount(); ++r)
        if (proxy_->index(r, KernelStatsModel::NameColumn).data(Qt::UserRole).toString() == name) {
            view_->setCurrentIndex(proxy_->index(r, KernelStatsModel::NameColumn));
            return;
        }
}

void KernelsPage::loadOccurrences() {
    const quint64 id = ++occRequest_;
    const QModelIndex cur = view_->currentIndex();
    const RunRecord* run = session()->findRun(currentRunId(runBox_));
    if (!cur.isValid() || !run) {
        occurrences_->setOccurrences({}, 0);
        if (std::exchange(readyAfterOccurrences_, false))
            markReady();
        return;
    }
    const std::string name =
        cur.siblingAtColumn(KernelStatsModel::NameColumn).data(Qt::UserRole).toString().toStdString();
    const std::string path = session()->path().toStdString();
    const RunId runId = run->id;
    const int rank = rankBox_->currentData().toInt();
    struct Occurrences {
        std::vector<KernelOccurrence> rows;
        Ns runStart = 0;
    };
    runInBackground<Occurrences>(
        this,
        [path, runId, name, rank]() {
            Workspace ws(path, Workspace::Mode::ReadOnly);
            return Occurrences{
                KernelOccurrencesModel::readOccurrences(ws, runId, name, rank, kMaxOccurrences),
                runTimeOrigin(ws, runId)};
        },
        [this, id](TaskOutcome<Occurrences>& o) {
            if (id != occRequest_)
                return;
            if (o.value)
                occurrences_->setOccurrences(std::move(o.value->rows), o.value->runStart);
            else
                occurrences_->setOccurrences({}, 0);
            emit occurrencesLoaded();
            if (std::exchange(readyAfterOccurrences_, false))
                markReady();
        });
}

QString KernelsPage::selectedRowsText() const {
    QModelIndexList rows = view_->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QStringList lines;
    QStringList header;
    for (int c = 0; c < proxy_->columnCount(); ++c)
        header << proxy_->headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (const QModelIndex& r : rows) {
        QStringList cells;
        for (int c = 0; c < proxy_->columnCount(); ++c)
            cells << proxy_->index(r.row(), c).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool KernelsPage::exportCsv(const QString& path) const {
    std::vector<const KernelStatRow*> rows;
    for (int r = 0; r < proxy_->rowCount(); ++r)
        rows.push_back(&model_->rows()[size_t(proxy_->mapToSource(proxy_->index(r, 0)).row())]);
    try {
        KernelStatsCsv::write(QFile::encodeName(path).toStdString(), statsRank_, rows);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void KernelsPage::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(selectedRowsText());
        return;
    }
    WorkbenchPage::keyPressEvent(e);
}

bool KernelsPage::focusSearch() {
    search_->setFocus(Qt::ShortcutFocusReason);
    search_->selectAll();
    return true;
}

} // namespace cnp::wb
