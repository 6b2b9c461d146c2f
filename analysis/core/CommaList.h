#pragma once
// Comma-separated lists as used by the plan order (meta "plan_order") and the CLI's --order / --plan:
// items are split on ',' and empty items dropped; no other trimming (labels may hold spaces).
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

std::vector<std::string> splitCommaList(std::string_view s);

} // namespace cnp
