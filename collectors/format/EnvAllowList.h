#pragma once
// The only environment variables any importer or the collector may keep. Everything else
// (tokens, keys, PMI secrets...) is dropped at the source. Exact names; no patterns.
#include <string_view>

namespace cnp {

bool isAllowedEnvName(std::string_view name);

} // namespace cnp
