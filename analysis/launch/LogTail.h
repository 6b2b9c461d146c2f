#pragma once
// The end of a failed job's log, for its failure message: what the workload said last is usually why it
// failed (issue 32.5: "python: can't open file 'train.py'" was only in node0.log, the row said "exit code
// 2").
#include <cstddef>
#include <string>

namespace cnp::launch {

// The last `maxLines` non-blank lines of `log`, joined with " | ", each trimmed of surrounding white space
// and control characters; at most `maxChars` bytes (the start cut, "…" in front; never inside a UTF-8
// sequence). "" for a log with nothing printable.
std::string logTail(const std::string& log, std::size_t maxLines = 3, std::size_t maxChars = 400);

} // namespace cnp::launch
