#include "ElidingTextTicker.h"

#include <QFontMetrics>

#include <cmath>

namespace cnp::wb {

ElidingTextTicker::ElidingTextTicker(const QStringList& labels, const QFont& font)
    : labels_(labels), font_(font) {
    for (int i = 0; i < labels.size(); ++i)
        addTick(i, labels[i]);
}

QString ElidingTextTicker::fullLabel(int key) const {
    if (key < 0 || key >= labels_.size())
        return {};
    return QString(labels_[key]).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString ElidingTextTicker::shownLabel(int key) const {
    if (key < 0 || key >= labels_.size())
        return {};
    if (maxWidth_ <= 0)
        return labels_[key];
    const QFontMetrics fm(font_);
    QStringList lines = labels_[key].split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = fm.elidedText(line, Qt::ElideMiddle, maxWidth_);
    return lines.join(QLatin1Char('\n'));
}

QString ElidingTextTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return shownLabel(int(std::lround(tick)));
}

} // namespace cnp::wb
