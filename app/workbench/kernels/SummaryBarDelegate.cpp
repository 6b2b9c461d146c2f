#include "SummaryBarDelegate.h"

#include <QPainter>

#include <algorithm>

namespace cnp::wb {

SummaryBarDelegate::SummaryBarDelegate(int barRole, QColor color, QObject* parent)
    : QStyledItemDelegate(parent), barRole_(barRole), color_(color) {}

QColor SummaryBarDelegate::barColor(const QColor& bar, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base), text = palette.color(QPalette::Text);
    if (text.lightnessF() <= base.lightnessF())
        return bar; // dark text on a light base: the light bar keeps it readable
    // Light text (a dark theme): the bar is mixed into the base, dark enough for the text on it (issue
    // 32.9: light-blue bars under white figures were unreadable).
    constexpr double kShare = 0.35;
    auto mix = [](double b, double c) { return static_cast<int>(b + (c - b) * kShare); };
    return QColor(mix(base.red(), bar.red()), mix(base.green(), bar.green()), mix(base.blue(), bar.blue()));
}

void SummaryBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    const QVariant bar = index.data(barRole_);
    if (bar.isValid()) {
        const double f = std::clamp(bar.toDouble(), 0.0, 1.0);
        QRect r = option.rect.adjusted(2, 3, -2, -3);
        r.setWidth(static_cast<int>(r.width() * f));
        painter->fillRect(r, barColor(color_, option.palette));
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace cnp::wb
