#include "ElidingTextTicker.h"

#include <QFontMetrics>

#include <cmath>
#include <cstdlib>

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
    if (wrap_ && lines.size() == 1 && fm.horizontalAdvance(lines[0]) > maxWidth_) {
        // The separator nearest the middle; the break goes after it. O(label length).
        const QString& text = lines[0];
        qsizetype best = -1;
        for (qsizetype i = 1; i + 1 < text.size(); ++i)
            if (QStringLiteral("_-+/ ").contains(text[i]) &&
                (best < 0 || std::abs(i - text.size() / 2) < std::abs(best - text.size() / 2)))
                best = i;
        if (best > 0)
            lines = QStringList{text.left(best + 1).trimmed(), text.mid(best + 1).trimmed()};
    }
    for (QString& line : lines)
        line = fm.elidedText(line, Qt::ElideMiddle, maxWidth_);
    return lines.join(QLatin1Char('\n'));
}

QString ElidingTextTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return shownLabel(int(std::lround(tick)));
}

} // namespace cnp::wb
