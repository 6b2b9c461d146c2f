#include "ChartPalette.h"

#include <QHash>

namespace cnp::wb {

QColor ChartPalette::categoryColor(const QString& category) {
    static const QHash<QString, QColor> colors = {
        {QStringLiteral("gemm"), QColor(0x1f, 0x77, 0xb4)},
        {QStringLiteral("attention"), QColor(0x94, 0x67, 0xbd)},
        {QStringLiteral("triton-fused"), QColor(0x17, 0xbe, 0xcf)},
        {QStringLiteral("elementwise/reduction"), QColor(0x2c, 0xa0, 0x2c)},
        {QStringLiteral("optimizer"), QColor(0xbc, 0xbd, 0x22)},
        {QStringLiteral("other"), QColor(0x8c, 0x56, 0x4b)},
        {QStringLiteral("compute"), QColor(0x1f, 0x77, 0xb4)},
        {QStringLiteral("communication"), QColor(0xd6, 0x27, 0x28)},
        {QStringLiteral("memory"), QColor(0xff, 0x7f, 0x0e)},
        {QStringLiteral("idle"), QColor(0xa0, 0xa0, 0xa0)},
        {QStringLiteral("overlap"), QColor(0xe3, 0x77, 0xc2)},
    };
    const auto it = colors.find(category.toLower());
    if (it != colors.end())
        return *it;
    const uint h = qHash(category);
    return QColor::fromHsv(int(h % 360), 140, 190);
}

QStringList ChartPalette::categoryOrder() {
    return {QStringLiteral("gemm"),          QStringLiteral("attention"),
            QStringLiteral("triton-fused"),  QStringLiteral("elementwise/reduction"),
            QStringLiteral("optimizer"),     QStringLiteral("other"),
            QStringLiteral("communication"), QStringLiteral("memory"),
            QStringLiteral("idle")};
}

QColor ChartPalette::configurationColor(int planIndex) {
    // A qualitative palette distinct from the category colours' dominant hues where possible.
    static const QColor colors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                    QColor(0x59, 0xa1, 0x4f), QColor(0xb0, 0x7a, 0xa1),
                                    QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                    QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f)};
    const int n = int(std::size(colors));
    return colors[((planIndex % n) + n) % n];
}

QColor ChartPalette::runAColor() {
    return configurationColor(0);
}
QColor ChartPalette::runBColor() {
    return configurationColor(1);
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
