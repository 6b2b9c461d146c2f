#include "SummaryBarDelegate.h"

#include <QPainter>

#include <algorithm>

namespace cnp::wb {

SummaryBarDelegate::SummaryBarDelegate(int barRole, QColor color, QObject* parent)
    : QStyledItemDelegate(parent), barRole_(barRole), color_(color) {}

void SummaryBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    const QVariant bar = index.data(barRole_);
    if (bar.isValid()) {
        const double f = std::clamp(bar.toDouble(), 0.0, 1.0);
        QRect r = option.rect.adjusted(2, 3, -2, -3);
        r.setWidth(static_cast<int>(r.width() * f));
        painter->fillRect(r, color_);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace cnp::wb
