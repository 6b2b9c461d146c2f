#pragma once
// A one-line label that never forces its parent wider and never clips mid-glyph: the text is elided in
// the middle to the width it gets, and the full text is its tooltip whenever it is elided.
#include <QLabel>

namespace cnp::wb {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(const QString& text = {}, QWidget* parent = nullptr);
    void setFullText(const QString& text);
    QString fullText() const { return full_; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void elide();
    QString full_;
};

} // namespace cnp::wb
