#include "ChartPalette.h"

#include "report/Palette.h"

namespace cnp::wb {

// The colours come from the product's one palette (analysis/report/Palette.h), shared with the reports.
QColor ChartPalette::categoryColor(const QString& category) {
    return QColor(QString::fromStdString(palette::categoryColor(category.toLower().toStdString())));
}

QStringList ChartPalette::categoryOrder() {
    return {QStringLiteral("gemm"),          QStringLiteral("attention"),
            QStringLiteral("triton-fused"),  QStringLiteral("elementwise/reduction"),
            QStringLiteral("optimizer"),     QStringLiteral("other"),
            QStringLiteral("communication"), QStringLiteral("memory"),
            QStringLiteral("idle")};
}

QColor ChartPalette::configurationColor(const QString& config, const std::vector<std::string>& plan) {
    return QColor(QString::fromStdString(palette::configurationColor(config.toStdString(), plan)));
}

QColor ChartPalette::runAColor() {
    return QColor(QString::fromStdString(palette::runAColor()));
}
QColor ChartPalette::runBColor() {
    return QColor(QString::fromStdString(palette::runBColor()));
}
QColor ChartPalette::positiveDeltaColor() {
    return QColor(0x2e, 0x9d, 0x4a);
}
QColor ChartPalette::negativeDeltaColor() {
    return QColor(0xd6, 0x3b, 0x3b);
}

QColor ChartPalette::textColor(const QPalette& p) {
    return p.color(QPalette::WindowText);
}

QColor ChartPalette::gridColor(const QPalette& p) {
    QColor c = p.color(QPalette::WindowText);
    c.setAlpha(40);
    return c;
}

QColor ChartPalette::backgroundColor(const QPalette& p) {
    return p.color(QPalette::Base);
}

bool ChartPalette::isDark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < 128;
}

} // namespace cnp::wb
