#pragma once
// The JSON text of the workspace's JSON columns (runs.source_files, runs.env, ranks.gpu_names, ...). They
// hold what this program wrote, but a shared workspace may hold anything: malformed or too deeply nested
// JSON reads as empty, and non-string members are skipped.
#include <string>
#include <utility>
#include <vector>

namespace cnp {

std::string jsonArrayText(const std::vector<std::string>& v);
std::string jsonObjectText(const std::vector<std::pair<std::string, std::string>>& kv);
std::vector<std::string> parseJsonArrayText(const std::string& s);
std::vector<std::pair<std::string, std::string>> parseJsonObjectText(const std::string& s);

} // namespace cnp
