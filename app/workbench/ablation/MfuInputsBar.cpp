#include "MfuInputsBar.h"

#include "ElidedLabel.h"
#include "WorkspaceSession.h"
#include "WorkspaceWriter.h"

#include "metrics/GpuPeakFlops.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>

#include <QVBoxLayout>

#include <cmath>
#include <exception>
#include <set>

namespace cnp::wb {

namespace {
// "989.4e12": the exact figure, short and re-parsable (the fields take plain or scientific notation).
QString numberText(double v) {
    return v > 0 ? QLocale::c().toString(v, 'g', 6) : QString();
}

bool parseField(const QLineEdit* e, double* out) {
    const QString t = e->text().trimmed();
    if (t.isEmpty()) {
        *out = 0;
        return true;
    }
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    if (!ok || !std::isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

QString flopRate(double v) {
    return QStringLiteral("%1 TFLOP/s").arg(QLocale::c().toString(v / 1e12, 'f', 1));
}
} // namespace

MfuInputsBar::MfuInputsBar(WorkspaceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), flopsPerToken_(new QLineEdit), gpuBox_(new QComboBox),
      peak_(new QLineEdit), apply_(new QPushButton(tr("Set"))), basis_(new ElidedLabel) {
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    auto* row = new QHBoxLayout;
    rows->addLayout(row);
    flopsPerToken_->setObjectName(QStringLiteral("mfuFlopsPerToken"));
    flopsPerToken_->setPlaceholderText(tr("from runs"));
    flopsPerToken_->setToolTip(tr("Model FLOPs of one token, forward + backward, whole model (e.g. 6 × "
                                  "parameters for a dense transformer). Empty: the runs' FLOPs per step."));
    peak_->setObjectName(QStringLiteral("mfuPeakFlops"));
    peak_->setPlaceholderText(tr("GPU default"));
    peak_->setToolTip(tr("Peak FLOP/s of one GPU (dense BF16). Empty: the runs' metadata, else the "
                         "datasheet figure of the runs' GPU model."));
    const int fieldWidth = fontMetrics().horizontalAdvance(QStringLiteral("0000.00e12")) + 16;
    flopsPerToken_->setFixedWidth(fieldWidth);
    peak_->setFixedWidth(fieldWidth);
    gpuBox_->setObjectName(QStringLiteral("mfuGpuBox"));
    gpuBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    gpuBox_->setMinimumContentsLength(12);
    gpuBox_->addItem(tr("GPU preset…"));
    for (const GpuPeakFlops& g : knownGpuPeaks())
        gpuBox_->addItem(QStringLiteral("%1 — %2").arg(QString::fromUtf8(g.name.data(), int(g.name.size())),
                                                       flopRate(g.denseBf16Flops)),
                         g.denseBf16Flops);
    gpuBox_->setToolTip(tr("Fill the peak with a GPU's datasheet figure (dense BF16)"));
    apply_->setObjectName(QStringLiteral("mfuApply"));
    apply_->setToolTip(tr("Store the MFU inputs in the workspace and recompute the ablation"));
    basis_->setObjectName(QStringLiteral("mfuBasis"));
    row->addWidget(new QLabel(tr("MFU: FLOPs/token")));
    row->addWidget(flopsPerToken_);
    row->addSpacing(8);
    row->addWidget(new QLabel(tr("peak FLOP/s per GPU")));
    row->addWidget(peak_);
    row->addWidget(gpuBox_);
    row->addWidget(apply_);
    row->addStretch(1);
    rows->addWidget(basis_); // its own line: at 1024 px the inputs leave no room beside them
    connect(session_, &WorkspaceSession::workspaceChanged, this, &MfuInputsBar::updateWritable);
    updateWritable();
    connect(gpuBox_, &QComboBox::activated, this, &MfuInputsBar::presetChosen);
    connect(apply_, &QPushButton::clicked, this, &MfuInputsBar::store);
    for (QLineEdit* e : {flopsPerToken_, peak_}) {
        connect(e, &QLineEdit::returnPressed, this, &MfuInputsBar::store);
        connect(e, &QLineEdit::textEdited, this, [e]() { e->setStyleSheet(QString()); });
    }
}

void MfuInputsBar::load() {
    MfuInputs in;
    if (const Workspace* ws = session_->workspace()) {
        try {
            in = workspaceMfuInputs(*ws);
        } catch (const std::exception& e) {
            basis_->setFullText(QString::fromUtf8(e.what()));
        }
    }
    flopsPerToken_->setText(numberText(in.flopsPerToken));
    peak_->setText(numberText(in.peakFlops));
    gpuBox_->setCurrentIndex(0);
    for (QLineEdit* e : {flopsPerToken_, peak_})
        e->setStyleSheet(QString());
}

bool MfuInputsBar::inputs(MfuInputs* out, QString* error) const {
    if (!parseField(flopsPerToken_, &out->flopsPerToken)) {
        *error = tr("FLOPs per token must be a number >= 0, e.g. 6.2e9");
        return false;
    }
    if (!parseField(peak_, &out->peakFlops)) {
        *error = tr("Peak FLOP/s must be a number >= 0, e.g. 989.4e12");
        return false;
    }
    return true;
}

void MfuInputsBar::store() {
    MfuInputs in;
    QString error;
    if (!inputs(&in, &error)) {
        basis_->setFullText(error);
        for (QLineEdit* e : {flopsPerToken_, peak_}) {
            double ignored = 0;
            e->setStyleSheet(parseField(e, &ignored) ? QString() : QStringLiteral("color: #d63b3b"));
        }
        return;
    }
    session_->writer()->submit(
        tr("Storing the MFU inputs"), [in](Workspace& ws) { storeMfuInputs(ws, in); },
        [this](const QString& error) {
            if (!error.isEmpty())
                basis_->setFullText(tr("Cannot store the MFU inputs: %1").arg(error));
            else
                emit stored();
        });
}

void MfuInputsBar::updateWritable() {
    WorkspaceWriter::enableWhereWritable({flopsPerToken_, gpuBox_, peak_, apply_},
                                         session_->readOnlyReason());
}

void MfuInputsBar::presetChosen(int index) {
    const double peak = gpuBox_->itemData(index).toDouble();
    if (peak > 0) {
        peak_->setText(numberText(peak));
        peak_->setStyleSheet(QString());
    }
}

void MfuInputsBar::setBasis(const std::vector<MfuBasis>& perConfig) {
    // Names the distinct peaks and FLOPs sources the figures rest on, e.g. "peak 989.4 TFLOP/s (NVIDIA
    // H200 SXM default) · FLOPs: workspace".
    std::set<QString> peaks, flops;
    bool missingFlops = false;
    for (const MfuBasis& b : perConfig) {
        if (b.peakFlops > 0)
            peaks.insert(
                b.peakSource == "default"
                    ? tr("%1 (%2 default)").arg(flopRate(b.peakFlops), QString::fromStdString(b.defaultGpu))
                    : tr("%1 (%2)").arg(flopRate(b.peakFlops), QString::fromStdString(b.peakSource)));
        if (b.flopsPerStep > 0)
            flops.insert(QString::fromStdString(b.flopsSource));
        else
            missingFlops = true;
    }
    QStringList parts;
    if (!peaks.empty())
        parts << tr("peak %1").arg(QStringList(peaks.begin(), peaks.end()).join(QStringLiteral(", ")));
    else
        parts << tr("no peak known");
    if (missingFlops)
        parts << tr("FLOPs unknown for some configurations (FLOPs/token needs the runs' tokens per step)");
    else if (!flops.empty())
        parts << tr("FLOPs from %1").arg(QStringList(flops.begin(), flops.end()).join(QStringLiteral(", ")));
    basis_->setFullText(tr("MFU rests on: %1").arg(parts.join(QStringLiteral(" · "))));
}

QString MfuInputsBar::basisText() const {
    return basis_->fullText();
}

} // namespace cnp::wb
