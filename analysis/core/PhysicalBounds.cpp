#include "core/PhysicalBounds.h"

#include <cstdio>
#include <cstdlib>

namespace cnp {

namespace {
// The shortest text that reads back as `v` (at least 6 significant digits' brevity: 1e+12, not
// 1000000000000): a value just outside a bound must not print as the bound itself (the round-two campaign:
// "1e+12 is outside the range ... (0 to 1e+12 tokens)" for 1.0000001e12).
std::string shortest(double v) {
    char buf[32];
    for (int precision = 6; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v)
            break;
    }
    return buf;
}
} // namespace

std::string PhysicalBound::rangeText() const {
    return "0 to " + shortest(max) + " " + std::string(unit);
}

std::string outOfBoundText(const PhysicalBound& b, double value) {
    return shortest(value) + " is outside the range of " + std::string(b.what) + " (" + b.rangeText() + ")";
}

} // namespace cnp
