#include "PlanForm.h"

#include "plan/PlanDelta.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace cnp::wb {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

std::string ownValue(const plan::Configuration& c, const QString& key) {
    const plan::ConfigValues& o = c.own;
    if (key == QLatin1String("name"))
        return c.name;
    if (key == QLatin1String("extends"))
        return c.extends;
    if (key == QLatin1String("image"))
        return o.image.value_or("");
    if (key == QLatin1String("cudaVersion"))
        return o.cudaVersion.value_or("");
    return o.nodePool.value_or("");
}

// What the resolved value is when the configuration does not write it (shown as the field's hint).
std::string inheritedValue(const plan::Configuration& c, const QString& key) {
    const plan::ConfigValues& r = c.resolved;
    if (key == QLatin1String("image"))
        return r.image.value_or("");
    if (key == QLatin1String("cudaVersion"))
        return r.cudaVersion.value_or("");
    if (key == QLatin1String("nodePool"))
        return r.nodePool.value_or("");
    return {};
}

} // namespace

PlanForm::PlanForm(QWidget* parent)
    : QWidget(parent), header_(new QLabel), list_(new QListWidget),
      add_(new QPushButton(tr("Add configuration"))), fields_(new QWidget), resolved_(new QPlainTextEdit) {
    list_->setObjectName(QStringLiteral("planConfigurations"));
    add_->setObjectName(QStringLiteral("addConfiguration"));
    add_->setToolTip(tr("Append a configuration that extends the selected one"));
    resolved_->setObjectName(QStringLiteral("resolvedConfiguration"));
    resolved_->setReadOnly(true);
    resolved_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    resolved_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    header_->setWordWrap(true);
    auto* form = new QFormLayout(fields_);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addField(QStringLiteral("name"), tr("Name"), tr("The configuration's label on its runs"));
    addField(QStringLiteral("extends"), tr("Extends"), tr("The earlier configuration this one adds to"));
    addField(QStringLiteral("image"), tr("Image"), tr("Container image (container and Kubernetes backends)"));
    addField(QStringLiteral("cudaVersion"), tr("CUDA"),
             tr("The image's CUDA version, checked against the nodes' driver"));
    addField(QStringLiteral("nodePool"), tr("Node pool"), tr("Selects the nodes (kubernetes.nodePoolLabel)"));
    for (const auto& [key, edit] : edits_)
        form->addRow(edit->property("label").toString(), edit);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header_);
    layout->addWidget(list_, 2);
    layout->addWidget(add_, 0, Qt::AlignLeft);
    layout->addWidget(fields_);
    layout->addWidget(new QLabel(tr("Resolved, and the change from its predecessor:")));
    layout->addWidget(resolved_, 3);
    connect(list_, &QListWidget::currentRowChanged, this, &PlanForm::showConfiguration);
    connect(add_, &QPushButton::clicked, this, [this]() {
        const int i = currentConfiguration();
        emit addRequested(i >= 0 ? qs(plan_.configurations[size_t(i)].name) : QString());
    });
    showConfiguration(-1);
}

QLineEdit* PlanForm::addField(const QString& key, const QString& label, const QString& tip) {
    auto* edit = new QLineEdit;
    edit->setObjectName(QStringLiteral("field_") + key);
    edit->setToolTip(tip);
    edit->setProperty("label", label);
    edit->setClearButtonEnabled(true);
    connect(edit, &QLineEdit::editingFinished, this, [this, key, edit]() {
        const int i = currentConfiguration();
        if (i < 0 || edit->text().toStdString() == ownValue(plan_.configurations[size_t(i)], key))
            return;
        emit keyEdited(i, key, edit->text());
    });
    edits_.emplace_back(key, edit);
    return edit;
}

QString PlanForm::headerText() const {
    return header_->text();
}

void PlanForm::setPlan(const plan::Plan& plan, const std::vector<plan::Finding>& findings) {
    const int keep = currentConfiguration();
    plan_ = plan;
    // A figure whose value the lint refused: the parser kept its default, which the plan does not say.
    auto figure = [&](const char* key, int value) {
        const auto at = plan.positions.find(key);
        const bool refused =
            at != plan.positions.end() && std::any_of(findings.begin(), findings.end(), [&](const auto& f) {
                return f.severity == plan::Severity::Error && f.line == at->second.line &&
                       f.column == at->second.column;
            });
        return refused ? QStringLiteral("<span style='color:#c03030'>?</span>") : QString::number(value);
    };
    header_->setText(tr("<b>%1</b> — %2 node(s) × %3 GPU(s), %4 traced + %5 untraced repeat(s)")
                         .arg(qs(plan.name.empty() ? std::string("unnamed plan") : plan.name).toHtmlEscaped(),
                              figure("resources.nodes", plan.resources.nodes),
                              figure("resources.gpusPerNode", plan.resources.gpusPerNode),
                              figure("repeats.traced", plan.repeats.traced),
                              figure("repeats.untraced", plan.repeats.untraced)));
    const QSignalBlocker block(list_);
    list_->clear();
    for (std::size_t i = 0; i < plan.configurations.size(); ++i) {
        const auto& c = plan.configurations[i];
        list_->addItem(QStringLiteral("%1. %2").arg(i + 1).arg(qs(c.name)) +
                       (c.extends.empty() ? QString() : QStringLiteral("   ← %1").arg(qs(c.extends))));
    }
    const int row = std::min(std::max(keep, 0), int(plan.configurations.size()) - 1);
    list_->setCurrentRow(row);
    showConfiguration(row);
}

int PlanForm::currentConfiguration() const {
    const int row = list_->currentRow();
    return row >= 0 && row < int(plan_.configurations.size()) ? row : -1;
}

void PlanForm::selectConfiguration(int index) {
    list_->setCurrentRow(index);
}

void PlanForm::showConfiguration(int index) {
    fields_->setEnabled(index >= 0);
    for (const auto& [key, edit] : edits_) {
        if (edit->hasFocus() && index >= 0)
            continue; // never rewrite the field being typed in
        const QSignalBlocker block(edit);
        edit->setText(index >= 0 ? qs(ownValue(plan_.configurations[size_t(index)], key)) : QString());
        const std::string inherited =
            index >= 0 ? inheritedValue(plan_.configurations[size_t(index)], key) : "";
        edit->setPlaceholderText(inherited.empty() ? QString() : tr("inherited: %1").arg(qs(inherited)));
    }
    resolved_->setPlainText(index >= 0 ? resolvedSummary(index)
                                       : tr("No configuration: add one, or open a plan."));
}

QString PlanForm::resolvedSummary(int index) const {
    const plan::Configuration& c = plan_.configurations[size_t(index)];
    const plan::ConfigValues& v = c.resolved;
    QStringList lines;
    lines << tr("argv   %1").arg(qs(plan::displayArgv(plan::resolvedArgv(plan_, c))));
    lines << tr("image  %1").arg(qs(v.image.value_or("(none: local backend)")));
    for (const auto& e : v.env)
        lines << QStringLiteral("env    %1=%2").arg(qs(e.name), qs(e.value));
    for (const auto& m : v.mounts)
        lines << QStringLiteral("mount  %1").arg(qs(plan::displayMount(m)));
    for (const auto& [k, val] : v.nodeSelector)
        lines << QStringLiteral("node   %1=%2").arg(qs(k), qs(val));
    lines << QString();
    if (index == 0) {
        lines << tr("The first configuration: the baseline.");
        return lines.join('\n');
    }
    const auto delta = plan::configDelta(plan_.configurations[size_t(index) - 1].resolved, v);
    lines << tr("Changes from %1:%2")
                 .arg(qs(plan_.configurations[size_t(index) - 1].name),
                      delta.empty() ? tr(" none") : QString());
    for (const auto& d : delta)
        lines << (d.before.empty() ? QStringLiteral("  + %1 = %2").arg(qs(d.field), qs(d.after))
                  : d.after.empty()
                      ? QStringLiteral("  - %1 (was %2)").arg(qs(d.field), qs(d.before))
                      : QStringLiteral("  ~ %1: %2 → %3").arg(qs(d.field), qs(d.before), qs(d.after)));
    return lines.join('\n');
}

} // namespace cnp::wb
