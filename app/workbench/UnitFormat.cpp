#include "UnitFormat.h"

#include <QLocale>

#include <cmath>

namespace cnp::wb {

TimeScale UnitFormat::scaleFor(double maxNs) {
    const double a = std::fabs(maxNs);
    if (a >= 1e9)
        return {1e9, QStringLiteral("s")};
    if (a >= 1e6)
        return {1e6, QStringLiteral("ms")};
    if (a >= 1e3)
        return {1e3, QStringLiteral("µs")};
    return {1.0, QStringLiteral("ns")};
}

// The C locale with thousands separators ("1,234,567"), independent of the user's locale.
static QLocale groupingLocale() {
    QLocale l = QLocale::c();
    l.setNumberOptions(QLocale::DefaultNumberOptions);
    return l;
}

QString UnitFormat::integer(std::int64_t v) {
    return groupingLocale().toString(qlonglong(v));
}

static QString significant(double v) {
    const double a = std::fabs(v);
    const int decimals = a >= 100 ? 1 : a >= 10 ? 2 : 3;
    return QString::number(v, 'f', decimals);
}

QString UnitFormat::duration(double ns) {
    const TimeScale s = scaleFor(ns);
    if (s.nsPerUnit == 1.0)
        return QStringLiteral("%1 ns").arg(qint64(std::llround(ns)));
    return significant(ns / s.nsPerUnit) + QLatin1Char(' ') + s.suffix;
}

QString UnitFormat::durationExact(std::int64_t ns) {
    const TimeScale s = scaleFor(double(ns));
    if (s.nsPerUnit == 1.0)
        return QStringLiteral("%1 ns").arg(ns);
    const int decimals = s.nsPerUnit == 1e9 ? 9 : s.nsPerUnit == 1e6 ? 6 : 3;
    return QStringLiteral("%1 %2 (%3 ns)")
        .arg(QString::number(double(ns) / s.nsPerUnit, 'f', decimals), s.suffix, integer(ns));
}

QString UnitFormat::rate(double perSecond, const QString& unit) {
    if (std::fabs(perSecond) >= 1000)
        return groupingLocale().toString(perSecond, 'f', 0) + QLatin1Char(' ') + unit;
    return significant(perSecond) + QLatin1Char(' ') + unit;
}

QString UnitFormat::ratio(double r) {
    return QString::number(r, 'f', 3) + QStringLiteral("×");
}

QString UnitFormat::percent(double fraction) {
    return QString::number(fraction * 100.0, 'f', 1) + QStringLiteral(" %");
}

} // namespace cnp::wb
