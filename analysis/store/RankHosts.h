#pragma once
// The distinct hosts a run's ranks ran on (table `ranks`), for "nodes x GPUs". Empty strings (hosts a
// source did not record) are left out. O(ranks).
#include "store/Workspace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

std::vector<std::string> rankHosts(const Workspace& ws, RunId runId); // sorted, unique

} // namespace cnp
