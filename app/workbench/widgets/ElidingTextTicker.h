#pragma once
// Text ticks (one label per category key 0..n-1) that never overlap or run out of the chart: each line
// of a label is elided in the middle to the width the view gives each tick (setMaxLabelWidth), so a
// label is never rotated, stacked or cut mid-glyph (optionally a long label first wraps at a separator).
// fullLabel() keeps the text for tooltips: the label itself, or a longer text given for it (a label
// that abbreviates, e.g. "+CkptOpt" for the step "AC2+ACCL → AC2+ACCL+CkptOpt").
#include <qcustomplot.h>

#include <QFont>
#include <QFontMetrics>
#include <QStringList>

namespace cnp::wb {

class ElidingTextTicker : public QCPAxisTickerText {
public:
    // `tooltips`: the full text of each label for its tooltip; missing or empty = the label itself.
    ElidingTextTicker(const QStringList& labels, const QFont& font, const QStringList& tooltips = {});
    // Widest a label line may be, in pixels; <= 0 = no limit (before the first layout).
    void setMaxLabelWidth(int px) { maxWidth_ = px; }
    int maxLabelWidth() const { return maxWidth_; }
    // When on, a one-line label too wide for maxLabelWidth breaks into two lines after the separator
    // ('_', '-', '+', '/', ' ') nearest its middle before any line is elided ("compile_" / "ckpt"), or,
    // in a word without one, before the capital nearest its middle ("+Compiler" / "Opt"): for
    // horizontal axes, where a second line costs height, not a neighbour's room. When either line
    // would still be elided, the label fills up to kMaxWrappedLines lines after its separators instead
    // ("AC2+ACCL+" / "CompilerOpt+" / "CkptOpt"), if every line then fits whole.
    static constexpr int kMaxWrappedLines = 3;
    // `maxLines` (2..kMaxWrappedLines): the most lines a wrapped label may take (a vertical axis
    // allows what its per-category height holds).
    void setWrapAtSeparators(bool on, int maxLines = kMaxWrappedLines) {
        wrap_ = on;
        maxLines_ = maxLines;
    }
    bool wrapsAtSeparators() const { return wrap_; }
    int maxWrappedLines() const { return maxLines_; }
    // The label at category key `key` as given (lines joined by spaces); empty outside 0..n-1.
    QString label(int key) const;
    // The text for the label's tooltip: its full text when one was given, else label(key).
    QString fullLabel(int key) const;
    // The label at `key` as drawn (elided to the current width).
    QString shownLabel(int key) const;
    int count() const { return int(labels_.size()); }

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    // Where a one-line label breaks in two (index of the first character of the second line), -1 = none.
    static qsizetype wrapPoint(const QString& text);
    // `text` in lines of at most `width` px, broken only after separators (a piece wider stays whole).
    static QStringList packAtSeparators(const QString& text, const QFontMetrics& fm, int width);

    QStringList labels_;
    QStringList tooltips_;
    QFont font_;
    int maxWidth_ = 0;
    bool wrap_ = false;
    int maxLines_ = kMaxWrappedLines;
};

} // namespace cnp::wb
