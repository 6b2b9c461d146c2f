#pragma once
// Draws a horizontal bar behind a cell's text, as long as the model's bar role says (a fraction 0..1 of
// the column's largest value); cells without it are drawn as usual. The text stays readable on the bar in
// either theme (barColor).
#include <QStyledItemDelegate>

namespace cnp::wb {

class SummaryBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    SummaryBarDelegate(int barRole, QColor color, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    // The bar's colour under `palette`'s text: `bar` itself on a light base, mixed into a dark base so
    // the light text of a dark theme stays readable on it.
    static QColor barColor(const QColor& bar, const QPalette& palette);

private:
    int barRole_;
    QColor color_;
};

} // namespace cnp::wb
