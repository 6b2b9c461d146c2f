#pragma once
// Readable units for integer-nanosecond times and rates. Formatting only: no metric is computed here.
#include <QString>

#include <cstdint>

namespace cnp::wb {

struct TimeScale {
    double nsPerUnit = 1e6; // 1e6 = ms, 1e3 = µs, 1 = ns, 1e9 = s
    QString suffix = QStringLiteral("ms");
};

class UnitFormat {
public:
    // The unit in which `maxNs` reads as a number between 1 and 1000 (s, ms, µs or ns).
    static TimeScale scaleFor(double maxNs);
    // "12.34 ms", "850 µs", "37 ns" — 3-4 significant digits.
    static QString duration(double ns);
    // Exact value for tooltips: "12.345678 ms (12345678 ns)".
    static QString durationExact(std::int64_t ns);
    // "1,234,567".
    static QString integer(std::int64_t v);
    // "123,456 tokens/s" / "18.2 steps/s".
    static QString rate(double perSecond, const QString& unit);
    // "1.234×".
    static QString ratio(double r);
    // "12.3 %".
    static QString percent(double fraction);
};

} // namespace cnp::wb
