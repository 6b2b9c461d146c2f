#include "core/PhysicalBounds.h"

#include <cstdio>

namespace cnp {

namespace {
std::string shortest(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
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
