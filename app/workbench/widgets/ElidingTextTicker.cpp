#include "ElidingTextTicker.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cnp::wb {

ElidingTextTicker::ElidingTextTicker(const QStringList& labels, const QFont& font,
                                     const QStringList& tooltips)
    : labels_(labels), tooltips_(tooltips), font_(font) {
    for (int i = 0; i < labels.size(); ++i)
        addTick(i, labels[i]);
}

QString ElidingTextTicker::label(int key) const {
    if (key < 0 || key >= labels_.size())
        return {};
    return QString(labels_[key]).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

QString ElidingTextTicker::fullLabel(int key) const {
    const QString tip = tooltips_.value(key);
    return tip.isEmpty() ? label(key) : tip;
}

qsizetype ElidingTextTicker::wrapPoint(const QString& text) {
    // The separator nearest the middle (the break goes after it), else the capital after a lower-case
    // letter nearest the middle (the break goes before it). O(label length).
    const qsizetype mid = text.size() / 2;
    qsizetype best = -1;
    for (qsizetype i = 1; i + 1 < text.size(); ++i)
        if (QStringLiteral("_-+/ ").contains(text[i]) &&
            (best < 0 || std::abs(i - mid) < std::abs(best - mid)))
            best = i;
    if (best > 0)
        return best + 1;
    for (qsizetype i = 2; i + 1 < text.size(); ++i)
        if (text[i].isUpper() && text[i - 1].isLower() &&
            (best < 0 || std::abs(i - mid) < std::abs(best - mid)))
            best = i;
    return best;
}

QStringList ElidingTextTicker::packAtSeparators(const QString& text, const QFontMetrics& fm, int width) {
    // Pieces end after each separator; each line takes pieces while it still fits `width`.
    QStringList pieces;
    qsizetype from = 0;
    for (qsizetype i = 0; i < text.size(); ++i)
        if (QStringLiteral("_-+/ ").contains(text[i]) && i + 1 < text.size()) {
            pieces << text.mid(from, i + 1 - from);
            from = i + 1;
        }
    pieces << text.mid(from);
    QStringList lines;
    for (const QString& piece : pieces) {
        if (!lines.isEmpty() && fm.horizontalAdvance(lines.back() + piece) <= width)
            lines.back() += piece;
        else
            lines << piece;
    }
    for (QString& line : lines)
        line = line.trimmed();
    return lines;
}

QString ElidingTextTicker::shownLabel(int key) const {
    if (key < 0 || key >= labels_.size())
        return {};
    if (maxWidth_ <= 0)
        return labels_[key];
    const QFontMetrics fm(font_);
    QStringList lines = labels_[key].split(QLatin1Char('\n'));
    if (wrap_ && lines.size() == 1 && fm.horizontalAdvance(lines[0]) > maxWidth_) {
        const QString text = lines[0];
        if (const qsizetype at = wrapPoint(text); at > 0)
            lines = QStringList{text.left(at).trimmed(), text.mid(at).trimmed()};
        const auto tooWide = [&](const QString& line) { return fm.horizontalAdvance(line) > maxWidth_; };
        if (maxLines_ > 2 && std::any_of(lines.begin(), lines.end(), tooWide)) {
            // Two lines are not enough ("AC2+ACCL+" / "CompilerOpt+CkptOpt" at 1024 px): fill up to
            // kMaxWrappedLines lines after separators; kept only when every line then fits whole.
            const QStringList packed = packAtSeparators(text, fm, maxWidth_);
            if (packed.size() <= maxLines_ && std::none_of(packed.begin(), packed.end(), tooWide))
                lines = packed;
        }
    }
    for (QString& line : lines)
        line = fm.elidedText(line, Qt::ElideMiddle, maxWidth_);
    return lines.join(QLatin1Char('\n'));
}

QString ElidingTextTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return shownLabel(int(std::lround(tick)));
}

} // namespace cnp::wb
