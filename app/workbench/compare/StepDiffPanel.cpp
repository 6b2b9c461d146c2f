#include "StepDiffPanel.h"

#include "BackgroundTask.h"
#include "StepDiffView.h"
#include "UnitFormat.h"
#include "store/Workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace cnp::wb {

namespace {

QString signedDuration(Ns v) {
    return (v > 0   ? QStringLiteral("+")
            : v < 0 ? QStringLiteral("−")
                    : QString()) +
           UnitFormat::duration(static_cast<double>(v < 0 ? -v : v));
}

} // namespace

StepDiffPanel::StepDiffPanel(QWidget* parent)
    : QWidget(parent), stepBox_(new QComboBox), summary_(new QLabel),
      close_(new QPushButton(tr("Back to charts"))), view_(new StepDiffView) {
    setObjectName(QStringLiteral("stepDiffPanel"));
    stepBox_->setObjectName(QStringLiteral("stepDiffStep"));
    stepBox_->addItem(tr("Median step"), -1);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Step diff:")));
    top->addWidget(stepBox_);
    top->addWidget(summary_, 1);
    top->addWidget(close_);
    auto* scroll = new QScrollArea;
    scroll->setWidget(view_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
    connect(close_, &QPushButton::clicked, this, &StepDiffPanel::closeRequested);
    connect(stepBox_, &QComboBox::activated, this, [this]() {
        const int n = stepBox_->currentData().toInt();
        diff(path_, a_, b_, normalized_, n < 0 ? std::nullopt : std::optional<std::int32_t>(n));
    });
}

void StepDiffPanel::diff(const QString& path, RunId a, RunId b, bool normalized,
                         std::optional<std::int32_t> step) {
    path_ = path;
    a_ = a;
    b_ = b;
    normalized_ = normalized;
    step_ = step;
    const int at = stepBox_->findData(step ? *step : -1);
    if (at >= 0)
        stepBox_->setCurrentIndex(at);
    const quint64 id = ++request_;
    busy_ = true;
    summary_->setText(tr("<i>aligning the step…</i>"));
    StepDiffChoice choice;
    choice.step = step;
    choice.alignment.normalize = normalized;
    const std::string file = path.toStdString();
    runInBackground<std::shared_ptr<const StepDiffReport>>(
        this,
        [file, a, b, choice]() {
            Workspace ws(file, Workspace::Mode::ReadOnly);
            return std::make_shared<const StepDiffReport>(diffSteps(ws, a, b, choice));
        },
        [this, id, normalized](TaskOutcome<std::shared_ptr<const StepDiffReport>>& o) {
            if (id != request_)
                return;
            busy_ = false;
            if (!o.value) {
                report_.reset();
                view_->setAlignment(nullptr, normalized);
                summary_->setText(tr("Cannot diff the step: %1").arg(o.error.toHtmlEscaped()));
            } else {
                show(*o.value, normalized);
            }
            emit finished();
        });
}

void StepDiffPanel::show(std::shared_ptr<const StepDiffReport> report, bool normalized) {
    report_ = std::move(report);
    fillSteps(*report_);
    summary_->setText(summaryText(*report_));
    // The view shares the report's alignment (aliasing pointer: the report stays alive with it).
    view_->setAlignment(std::shared_ptr<const StepAlignment>(report_, &report_->alignment), normalized);
}

// The step numbers both runs have, after "Median step"; the step asked for current.
void StepDiffPanel::fillSteps(const StepDiffReport& r) {
    const int keep = step_ ? *step_ : -1;
    stepBox_->clear();
    stepBox_->addItem(tr("Median step"), -1);
    for (std::int32_t n : r.a.numbers)
        if (std::find(r.b.numbers.begin(), r.b.numbers.end(), n) != r.b.numbers.end())
            stepBox_->addItem(tr("Step %1").arg(n), n);
    stepBox_->setCurrentIndex(std::max(0, stepBox_->findData(keep)));
}

QString StepDiffPanel::summaryText(const StepDiffReport& r) const {
    const auto& t = r.alignment.totals;
    const QString steps =
        r.median ? tr("median steps %1 → %2").arg(r.a.step).arg(r.b.step) : tr("step %1").arg(r.a.step);
    return tr("%1, rank %2 · GPU span <b>%3 → %4 (%5)</b>: matched slower %6, faster %7, added %8, removed "
              "%9, "
              "idle and overlap %10 · %11 matched, %12 added, %13 removed")
        .arg(steps)
        .arg(r.a.rank)
        .arg(UnitFormat::duration(double(t.spanA)), UnitFormat::duration(double(t.spanB)),
             signedDuration(t.spanB - t.spanA), signedDuration(t.slower), signedDuration(t.faster),
             signedDuration(t.addedTime), signedDuration(-t.removedTime), signedDuration(t.idle))
        .arg(UnitFormat::integer(t.matched), UnitFormat::integer(t.added), UnitFormat::integer(t.removed));
}

} // namespace cnp::wb
