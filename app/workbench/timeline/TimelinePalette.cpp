#include "timeline/TimelinePalette.h"

#include "ChartPalette.h"

namespace cnp::wb {

QColor TimelinePalette::styleColor(const QString& s) {
    if (s == QLatin1String("runtime API"))
        return QColor(0x4e, 0x9a, 0x9a);
    if (s == QLatin1String("driver API"))
        return QColor(0x6b, 0x8e, 0x23);
    if (s == QLatin1String("cpu_op"))
        return QColor(0x7f, 0x9c, 0xc9);
    if (s == QLatin1String("user_annotation"))
        return QColor(0xb0, 0x8f, 0xc7);
    if (s == QLatin1String("python_function"))
        return QColor(0xa6, 0xb8, 0x8c);
    if (s == QLatin1String("nvtx"))
        return QColor(0xc7, 0xa2, 0x5c);
    if (s == QLatin1String("cpu range"))
        return QColor(0x9e, 0x9e, 0x9e);
    if (s == QLatin1String("gpu annotation"))
        return QColor(0xc9, 0x8f, 0xb0);
    if (s == QLatin1String("step"))
        return QColor(0x5f, 0x7d, 0x8e);
    if (s == QLatin1String("gpu busy"))
        return QColor(0x3b, 0x7d, 0x4f);
    if (s.isEmpty())
        return QColor(0x90, 0x90, 0x90);
    return ChartPalette::categoryColor(s);
}

std::vector<QColor> TimelinePalette::forStyles(const std::vector<std::string>& styles) {
    std::vector<QColor> out;
    out.reserve(styles.size());
    for (const auto& s : styles)
        out.push_back(styleColor(QString::fromStdString(s)));
    return out;
}

QColor TimelinePalette::textOn(const QColor& bg) {
    const double lum = 0.299 * bg.redF() + 0.587 * bg.greenF() + 0.114 * bg.blueF();
    return lum > 0.6 ? QColor(Qt::black) : QColor(Qt::white);
}

QColor TimelinePalette::searchHighlight() {
    return QColor(0xff, 0x00, 0xff);
}

} // namespace cnp::wb
