#include "PlanEditor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace cnp::wb {
namespace {

const QColor kErrorBack(255, 222, 222);
const QColor kWarningBack(255, 240, 200);

class Gutter : public QWidget {
public:
    explicit Gutter(PlanEditor* editor) : QWidget(editor), editor_(editor) {}
    QSize sizeHint() const override { return {editor_->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* e) override { editor_->paintGutter(e); }

private:
    PlanEditor* editor_;
};

} // namespace

PlanEditor::PlanEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new Gutter(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this]() { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& r, int dy) {
        if (dy)
            gutter_->scroll(0, dy);
        else
            gutter_->update(0, r.y(), gutter_->width(), r.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int PlanEditor::gutterWidth() const {
    const auto digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void PlanEditor::resizeEvent(QResizeEvent* e) {
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    gutter_->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void PlanEditor::paintGutter(QPaintEvent* e) {
    QPainter p(gutter_);
    p.fillRect(e->rect(), palette().color(QPalette::AlternateBase));
    const QList<int> errors = markedLines(plan::Severity::Error);
    const QList<int> warnings = markedLines(plan::Severity::Warning);
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= e->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        const int line = block.blockNumber() + 1;
        if (errors.contains(line) || warnings.contains(line))
            p.fillRect(0, top, 4, height, errors.contains(line) ? QColor(200, 40, 40) : QColor(220, 150, 0));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(0, top, gutter_->width() - 6, height, Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(line));
        block = block.next();
        top += height;
    }
}

void PlanEditor::setFindings(const std::vector<plan::Finding>& findings) {
    findings_ = findings;
    QList<QTextEdit::ExtraSelection> marks;
    for (const auto& f : findings_) {
        const QTextBlock block = document()->findBlockByNumber(std::max(0, f.line - 1));
        if (!block.isValid() || f.line < 1)
            continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(f.severity == plan::Severity::Error ? kErrorBack : kWarningBack);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        marks << s;
    }
    setExtraSelections(marks);
    gutter_->update();
}

QList<int> PlanEditor::markedLines(plan::Severity s) const {
    QList<int> lines;
    for (const auto& f : findings_)
        if (f.severity == s && f.line > 0 && !lines.contains(f.line))
            lines << f.line;
    return lines;
}

void PlanEditor::goTo(int line, int column) {
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                   std::clamp(column - 1, 0, block.length() - 1));
    setTextCursor(c);
    centerCursor();
    setFocus();
}

// Tooltips: the findings of the line under the mouse.
bool PlanEditor::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip)
        return QPlainTextEdit::event(e);
    auto* he = static_cast<QHelpEvent*>(e);
    const int line = cursorForPosition(viewport()->mapFromGlobal(he->globalPos())).blockNumber() + 1;
    QStringList text;
    for (const auto& f : findings_)
        if (f.line == line)
            text << QStringLiteral("%1: %2: %3")
                        .arg(QString::fromLatin1(plan::severityName(f.severity)),
                             QString::fromStdString(f.rule), QString::fromStdString(f.message));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(he->globalPos(), text.join('\n'), this);
    return true;
}

} // namespace cnp::wb
