#pragma once
// What this process has used so far, for --timing: CPU seconds (user + system), peak RSS, and the bytes
// read through read(2) and friends (Linux /proc/self/io rchar; -1 where unknown). Printed on stderr, one
// figure a line in --timing's layout, so a benchmark reads a worker's figures from its own output (a
// container's included).
namespace cnp::cli {

long long bytesReadSoFar();
void printResourceUse();

} // namespace cnp::cli
