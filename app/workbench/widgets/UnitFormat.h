#pragma once
// The GUI's QString face of cnp::units (analysis/core/Units.h, docs/formatting.md): every digit the
// workbench shows comes from there, so the CLI, the reports and the GUI print the same text.
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
    // "12.3 ms", "850 µs", "37 ns": units::duration.
    static QString duration(double ns);
    // Exact value for tooltips: "12.345678 ms (12,345,678 ns)".
    static QString durationExact(std::int64_t ns);
    // "1,234,567".
    static QString integer(std::int64_t v);
    // "148.2k tokens/s" / "18.25 steps/s".
    static QString rate(double perSecond, const QString& unit);
    // "1.23×".
    static QString ratio(double r);
    // "1.32× [1.30×, 1.34×]" / "1.32× (too few steps for a CI)".
    static QString ratioWithCi(double r, bool hasCi, double lo, double hi);
    // "48.0 MiB", "4 B".
    static QString bytes(double b);
    // "12.3%".
    static QString percent(double fraction);
};

} // namespace cnp::wb
