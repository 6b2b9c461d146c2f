#include "timeline/CriticalPathPanel.h"

#include "SummaryBarDelegate.h"
#include "UnitFormat.h"
#include "requests/CriticalPathRequest.h"
#include "timeline/CriticalPathModel.h"
#include "timeline/TimelineOverlayPainter.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QTableView>
#include <QVBoxLayout>

namespace cnp::wb {

namespace {
constexpr int kStackHeight = 12;
} // namespace

CriticalPathPanel::CriticalPathPanel(QWidget* parent)
    : QWidget(parent), heading_(new QLabel(this)), stack_(new QLabel(this)), table_(new QTableView(this)),
      model_(new CriticalPathModel(this)) {
    setObjectName(QStringLiteral("criticalPathPanel"));
    heading_->setObjectName(QStringLiteral("criticalPathHeading"));
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    stack_->setObjectName(QStringLiteral("criticalPathStack"));
    stack_->setFixedHeight(kStackHeight);
    stack_->setMinimumWidth(40);
    stack_->setScaledContents(true);
    table_->setObjectName(QStringLiteral("criticalPathTable"));
    table_->setModel(model_);
    table_->setItemDelegateForColumn(
        CriticalPathModel::Share,
        new SummaryBarDelegate(CriticalPathModel::BarRole,
                               TimelineOverlayPainter::criticalPathColor().lighter(160), table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // Kernel names can be hundreds of characters: the longest segment's name is elided in the middle
    // (its tooltip has it whole) and takes what the other columns leave.
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(CriticalPathModel::Longest, QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(40);
    table_->setToolTip(tr("Click a kind to select its longest segment on the timeline"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(heading_);
    lay->addWidget(stack_);
    lay->addWidget(table_, 1);
    auto activate = [this](const QModelIndex& index) {
        if (index.isValid())
            emit kindActivated(model_->rows()[static_cast<std::size_t>(index.row())].kind);
    };
    connect(table_, &QTableView::clicked, this, activate);
    connect(table_, &QTableView::activated, this, activate);
    setPath(nullptr);
}

QString CriticalPathPanel::heading() const {
    return heading_->text();
}

void CriticalPathPanel::setPath(const RankCriticalPath* path, const QString& status,
                                const QStringList& notes) {
    model_->setPath(path);
    drawStack(path);
    heading_->setToolTip(notes.join(QStringLiteral("\n\n")));
    if (!status.isEmpty()) {
        heading_->setText(status);
        return;
    }
    if (!path) {
        heading_->setText(tr("Select an event of a step (or place the view on it) and choose Show Critical "
                             "Path: why the step lasts what it lasts."));
        return;
    }
    const Ns window = path->path.end - path->windowStart;
    heading_->setText(
        tr("Rank %1 · %2: critical path %3 (window start to its last event, %4 segments)")
            .arg(path->rank)
            .arg(QString::fromStdString(path->window),
                 UnitFormat::duration(static_cast<double>(path->path.length)))
            .arg(path->segments.size()) +
        (window != path->path.length
             ? tr("; the window spans %1").arg(UnitFormat::duration(static_cast<double>(window)))
             : QString()));
}

void CriticalPathPanel::drawStack(const RankCriticalPath* path) {
    const int width = std::max(40, stack_->width());
    const qreal dpr = devicePixelRatioF();
    QPixmap pix(QSize(width, kStackHeight) * dpr);
    pix.setDevicePixelRatio(dpr);
    pix.fill(Qt::transparent);
    if (path && path->path.length > 0) {
        QPainter p(&pix);
        double x = 0;
        for (int k = 0; k < kPathKindCount; ++k) {
            const double w = static_cast<double>(path->path.byKind[static_cast<std::size_t>(k)]) /
                             static_cast<double>(path->path.length) * width;
            p.fillRect(QRectF(x, 0, w, kStackHeight), CriticalPathModel::kindColor(static_cast<PathKind>(k)));
            x += w;
        }
    }
    stack_->setPixmap(pix);
}

} // namespace cnp::wb
