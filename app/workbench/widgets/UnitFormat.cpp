#include "UnitFormat.h"

#include "core/Units.h"

namespace cnp::wb {

TimeScale UnitFormat::scaleFor(double maxNs) {
    const units::TimeScale s = units::timeScale(maxNs);
    return {s.nsPerUnit, QString::fromUtf8(s.suffix)};
}

QString UnitFormat::integer(std::int64_t v) {
    return QString::fromStdString(units::count(v));
}

QString UnitFormat::duration(double ns) {
    return QString::fromStdString(units::duration(ns));
}

QString UnitFormat::durationExact(std::int64_t ns) {
    return QString::fromStdString(units::durationExact(ns));
}

QString UnitFormat::rate(double perSecond, const QString& unit) {
    return QString::fromStdString(units::rate(perSecond, unit.toStdString()));
}

QString UnitFormat::ratio(double r) {
    return QString::fromStdString(units::ratio(r));
}

QString UnitFormat::ratioWithCi(double r, bool hasCi, double lo, double hi) {
    return QString::fromStdString(units::ratioWithCi(r, hasCi, lo, hi));
}

QString UnitFormat::bytes(double b) {
    return QString::fromStdString(units::bytes(b));
}

QString UnitFormat::percent(double fraction) {
    return QString::fromStdString(units::percent(fraction));
}

} // namespace cnp::wb
