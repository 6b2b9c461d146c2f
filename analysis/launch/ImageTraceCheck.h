#pragma once
// Whether the collector can trace in a container image, checked once per image before a study (issue 28:
// an image the collector cannot load in ran its traced jobs untraced, and they came back without traces).
// The collector needs glibc >= 2.28 (docs/collector.md "glibc floor") and finds CUPTI at run time, accepting
// only the major version whose record layouts it reads (CUDA 13: libcupti.so.13). One
// `ENGINE run --rm --entrypoint /bin/sh IMAGE -c SCRIPT` per image prints what the image has
// (traceProbeScript); parseTraceProbe reads it back and untraceableReason says why the collector cannot trace
// there, if it cannot.
#include "launch/CollectorEnvironment.h"
#include "launch/ContainerImages.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp::launch {

struct TraceProbe {
    bool ran = false;              // the script's output was read (it printed its "end" line)
    std::string libcLine;          // what the image says of its C library ("" when nothing answered)
    std::optional<int> glibcMinor; // 2.<minor> when libcLine names a glibc 2.x
    bool musl = false;
    std::vector<std::string> cupti; // every libcupti.so* path found, in the order printed
};

// The collector's glibc floor: 2.<kMinGlibcMinor>.
inline constexpr int kMinGlibcMinor = 28;

// A POSIX sh script (busybox's will do) that prints "libc: <first line of getconf GNU_LIBC_VERSION, ldd
// --version or libc.so.6 run as a program>", one "cupti: <path>" per libcupti.so* file (find over the image's
// own filesystem, else globs over the usual folders) and "end".
std::string traceProbeScript();

// The script's output read back; hostile text only ever yields fields, never an error.
TraceProbe parseTraceProbe(const std::string& output);

// "" when the collector can trace in an image with `probe`'s findings; otherwise why not, e.g.
// "glibc 2.27 is older than the 2.28 the collector needs". A CUPTI whose major version the file name
// does not tell (libcupti.so alone) is accepted: the collector checks its version when it loads.
std::string untraceableReason(const TraceProbe& probe);

// "image <image> (<its configurations>): <why>" when the collector cannot trace in `use`'s image with
// `probe`'s findings (untraceableReason); "" when it can.
std::string untraceableImageProblem(const ImageUse& use, const TraceProbe& probe);

// Throws InputError naming `planPath`: "<N> image(s) cannot be traced, so no job was started: " and the
// problems joined by "; ". Returns when there are none.
void refuseUntraceableImages(const std::string& planPath, const std::vector<std::string>& problems);

// Probes every image in `images` once (only the traced configurations' images should be passed). Throws
// InputError naming `planPath`, each untraceable image, its configurations and why; `note` hears images
// that could not be probed (no /bin/sh, say), which are run as they are.
void checkImagesTraceable(const std::string& engine, const EnvList& engineEnv,
                          const std::vector<ImageUse>& images, const std::string& planPath,
                          const std::function<void(const std::string&)>& note);

} // namespace cnp::launch
