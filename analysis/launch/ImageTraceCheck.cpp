#include "launch/ImageTraceCheck.h"

#include "core/InputError.h"
#include "launch/Subprocess.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace cnp::launch {

namespace {

// The CUPTI major version a file name tells: libcupti.so.13 or libcupti.so.13.0.48 -> 13; nullopt for
// libcupti.so or a date-versioned file (libcupti.so.2025.3.1: its soname link tells, when present).
std::optional<int> cuptiMajor(const std::string& path) {
    static const std::regex re(R"(libcupti\.so\.(\d{1,2})(\.[0-9.]*)?$)");
    std::smatch m;
    if (!std::regex_search(path, m, re))
        return std::nullopt;
    return std::stoi(m[1].str());
}

// What the image printed, safe for a terminal: every control character (C0, DEL) as '?', at most `limit`
// bytes. The image's file names are hostile input.
std::string printable(const std::string& text, std::size_t limit) {
    std::string out = text.substr(0, limit);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = '?';
    return out;
}

std::string joined(const std::vector<std::string>& words, const std::string& sep) {
    std::string s;
    for (const auto& w : words)
        s += (s.empty() ? "" : sep) + w;
    return s;
}

} // namespace

std::string traceProbeScript() {
    // Globs when the image has no find: the folders CUDA images, the nvidia wheels and the collector search.
    return "l=$(getconf GNU_LIBC_VERSION 2>/dev/null)\n"
           "[ -n \"$l\" ] || l=$(ldd --version 2>&1 | { IFS= read -r x; echo \"$x\"; })\n"
           "for f in /lib64/libc.so.6 /lib/x86_64-linux-gnu/libc.so.6 /usr/lib64/libc.so.6 "
           "/usr/lib/x86_64-linux-gnu/libc.so.6 /lib/libc.so.6; do\n"
           "  [ -n \"$l\" ] && break\n"
           "  [ -x \"$f\" ] && l=$(\"$f\" 2>&1 | { IFS= read -r x; echo \"$x\"; })\n"
           "done\n"
           "echo \"libc: $l\"\n"
           "if command -v find >/dev/null 2>&1; then\n"
           "  find / -xdev -name 'libcupti.so*' 2>/dev/null | while IFS= read -r f; do echo \"cupti: $f\"; "
           "done\n"
           "else\n"
           "  for f in /usr/local/cuda*/extras/CUPTI/lib64/libcupti.so* /usr/local/cuda*/lib64/libcupti.so* "
           "/usr/local/cuda*/targets/*/lib/libcupti.so* /usr/lib/x86_64-linux-gnu/libcupti.so* "
           "/usr/lib64/libcupti.so* /usr/local/lib/python3*/*-packages/nvidia/*/lib/libcupti.so* "
           "/usr/lib/python3*/*-packages/nvidia/*/lib/libcupti.so* /opt/*/libcupti.so* "
           "/opt/*/lib/libcupti.so*; do\n"
           "    [ -e \"$f\" ] && echo \"cupti: $f\"\n"
           "  done\n"
           "fi\n"
           "echo end\n";
}

TraceProbe parseTraceProbe(const std::string& output) {
    TraceProbe p;
    std::istringstream in(output);
    static const std::regex version(R"((\d+)\.(\d+))");
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.rfind("libc: ", 0) == 0) {
            p.libcLine = printable(line.substr(6), 200);
            const bool glibc = p.libcLine.find("GLIBC") != std::string::npos ||
                               p.libcLine.find("glibc") != std::string::npos ||
                               p.libcLine.find("GNU libc") != std::string::npos ||
                               p.libcLine.find("GNU C Library") != std::string::npos;
            p.musl = p.libcLine.find("musl") != std::string::npos;
            // The last "M.N" of the line: "glibc 2.36", "ldd (Ubuntu GLIBC 2.35-0ubuntu3.8) 2.35",
            // "GNU C Library (Debian GLIBC 2.36-9+deb12u4) stable release version 2.36."
            std::optional<std::pair<int, int>> last;
            for (auto it = std::sregex_iterator(p.libcLine.begin(), p.libcLine.end(), version);
                 it != std::sregex_iterator(); ++it)
                if ((*it)[1].length() <= 2 && (*it)[2].length() <= 3)
                    last = std::make_pair(std::stoi((*it)[1].str()), std::stoi((*it)[2].str()));
            if (glibc && last && last->first == 2)
                p.glibcMinor = last->second;
        } else if (line.rfind("cupti: ", 0) == 0) {
            p.cupti.push_back(printable(line.substr(7), 4096));
        } else if (line == "end") {
            p.ran = true;
        }
    }
    return p;
}

std::string untraceableReason(const TraceProbe& probe) {
    const std::string floor = "2." + std::to_string(kMinGlibcMinor);
    if (probe.musl)
        return "its C library is musl (" + probe.libcLine + "); the collector needs glibc " + floor +
               " or newer";
    if (probe.glibcMinor && *probe.glibcMinor < kMinGlibcMinor)
        return "glibc 2." + std::to_string(*probe.glibcMinor) + " is older than the " + floor +
               " the collector needs";
    if (probe.cupti.empty())
        return "no libcupti found in the image (the collector finds CUPTI at run time and records with "
               "CUDA 13's, libcupti.so.13)";
    for (const auto& path : probe.cupti)
        if (const auto major = cuptiMajor(path); !major || *major == 13)
            return "";
    // Every one names another CUDA: the first three said, the rest counted.
    std::vector<std::string> named(
        probe.cupti.begin(),
        probe.cupti.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, probe.cupti.size())));
    const std::size_t more = probe.cupti.size() - named.size();
    return "its only CUPTI is " + joined(named, ", ") +
           (more ? " and " + std::to_string(more) + " more" : "") +
           ", another CUDA than the 13 whose record layouts the collector reads (libcupti.so.13)";
}

void checkImagesTraceable(const std::string& engine, const EnvList& engineEnv,
                          const std::vector<ImageUse>& images, const std::string& planPath,
                          const std::function<void(const std::string&)>& note) {
    std::vector<std::string> problems;
    for (const auto& use : images) {
        const ProcessResult r = runProcess({engine, "run", "--rm", "--network=none", "--entrypoint",
                                            "/bin/sh", use.image, "-c", traceProbeScript()},
                                           engineEnv);
        const TraceProbe probe = parseTraceProbe(r.out);
        if (!probe.ran) {
            if (note)
                note("image " + use.image + " could not be checked for tracing (" + engine +
                     " run --entrypoint /bin/sh exited " + std::to_string(r.exitCode) +
                     "); its jobs run as they are");
            continue;
        }
        if (std::string problem = untraceableImageProblem(use, probe); !problem.empty())
            problems.push_back(problem);
    }
    refuseUntraceableImages(planPath, problems);
}

std::string untraceableImageProblem(const ImageUse& use, const TraceProbe& probe) {
    const std::string why = untraceableReason(probe);
    return why.empty() ? "" : "image " + use.image + " (" + joined(use.configs, ", ") + "): " + why;
}

void refuseUntraceableImages(const std::string& planPath, const std::vector<std::string>& problems) {
    if (problems.empty())
        return;
    throw InputError(planPath, std::to_string(problems.size()) + " image" +
                                   (problems.size() == 1 ? "" : "s") +
                                   " cannot be traced, so no job was started: " + joined(problems, "; "));
}

} // namespace cnp::launch
