#include "plan/ContainerPrivilege.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace cnp::plan {

namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

// The value of `flag` at words[i] ("--flag=V", "--flag V", and for a one-letter `shortFlag` "-x V",
// "-xV", "-x=V"); nullopt when words[i] is not that flag. `i` moves past a value in the next word.
std::optional<std::string> valueOf(const std::vector<std::string>& words, std::size_t& i,
                                   const std::string& flag, const std::string& shortFlag = {}) {
    const std::string& w = words[i];
    for (const std::string& f : {flag, shortFlag}) {
        if (f.empty() || w.rfind(f, 0) != 0)
            continue;
        if (w.size() == f.size()) {
            if (i + 1 < words.size())
                return words[++i];
            return std::string();
        }
        if (w[f.size()] == '=')
            return w.substr(f.size() + 1);
        if (f.size() == 2) // -vVALUE
            return w.substr(2);
    }
    return std::nullopt;
}

bool allowedDevice(const std::string& device) {
    const std::string host = device.substr(0, device.find(':')); // /dev/x[:/dev/y[:rwm]]
    if (!host.empty() && host.front() != '/')
        return host.find('=') != std::string::npos &&
               host.find('/') != std::string::npos; // CDI: vendor/class=name
    const std::string path = std::filesystem::path(host).lexically_normal().string();
    return path.rfind("/dev/nvidia", 0) == 0 || path.rfind("/dev/dri/", 0) == 0 ||
           path.rfind("/dev/infiniband/", 0) == 0;
}

// The host side of a -v/--volume value ("SRC:DST[:OPTS]"; a named volume has no '/') or of a --mount
// value ("type=bind,source=SRC,target=DST"); "" when it names none.
std::string volumeSource(const std::string& value) {
    return value.substr(0, value.find(':'));
}

std::string mountSource(const std::string& value) {
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t end = std::min(value.find(',', start), value.size());
        const std::string field = value.substr(start, end - start);
        for (const char* key : {"source=", "src=", "device="})
            if (field.rfind(key, 0) == 0)
                return field.substr(std::string(key).size());
        start = end + 1;
    }
    return {};
}

const char* const kSystemFolders[] = {
    "/proc",           "/sys", "/dev",     "/boot",           "/etc",
    "/root",           "/run", "/var/run", "/var/lib/docker", "/var/lib/containers",
    "/var/lib/kubelet"};

} // namespace

std::string hostPathProblem(const std::string& hostPath) {
    if (hostPath.empty() || hostPath.front() != '/')
        return {}; // a named volume or a relative path: not the host's system
    std::string p = std::filesystem::path(hostPath).lexically_normal().string();
    while (p.size() > 1 && p.back() == '/')
        p.pop_back();
    if (p == "/" || p.find_first_not_of('/') == std::string::npos)
        return "mounting the host's root '" + hostPath + "' hands the host to the container";
    for (const char* folder : kSystemFolders) {
        const std::string f = folder;
        if (p == f || p.rfind(f + "/", 0) == 0)
            return "mounting '" + hostPath + "' (the host's " + f + ") hands the host to the container";
    }
    if (p.size() > 5 && p.ends_with(".sock"))
        return "mounting the socket '" + hostPath + "' hands the engine (and so the host) to the container";
    return {};
}

std::vector<FlagProblem> privilegeGrantingFlags(const std::vector<std::string>& words) {
    std::vector<FlagProblem> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::size_t at = i;
        auto refuse = [&](std::string why) { out.push_back({at, std::move(why)}); };
        const std::string& w = words[at];
        if (w.rfind("--privileged", 0) == 0 && (w.size() == 12 || w[12] == '=')) {
            refuse(w + " gives the container every capability and device of the host");
        } else if (auto cap = valueOf(words, i, "--cap-add")) {
            const std::string c =
                upper(cap->rfind("CAP_", 0) == 0 || cap->rfind("cap_", 0) == 0 ? cap->substr(4) : *cap);
            if (c != "IPC_LOCK" && c != "SYS_NICE")
                refuse("--cap-add " + *cap +
                       " grants privilege over the host (only IPC_LOCK and SYS_NICE may "
                       "be added)");
        } else if (auto opt = valueOf(words, i, "--security-opt")) {
            const std::string o = *opt;
            if (o.find("unconfined") != std::string::npos || o == "label=disable" || o == "label:disable" ||
                o.rfind("unmask", 0) == 0)
                refuse("--security-opt " + o + " lifts the container's confinement");
        } else if (auto ns = valueOf(words, i, "--pid")) {
            if (*ns == "host")
                refuse("--pid=host shares the host's processes with the container");
        } else if (auto ns2 = valueOf(words, i, "--userns")) {
            if (*ns2 == "host")
                refuse("--userns=host runs the container in the host's user namespace");
        } else if (auto ns3 = valueOf(words, i, "--uts")) {
            if (*ns3 == "host")
                refuse("--uts=host lets the container set the host's name");
        } else if (auto ns4 = valueOf(words, i, "--cgroupns")) {
            if (*ns4 == "host")
                refuse("--cgroupns=host shares the host's cgroup namespace with the container");
        } else if (auto dev = valueOf(words, i, "--device")) {
            if (!allowedDevice(*dev))
                refuse("--device " + *dev +
                       " hands a host device to the container (only GPUs and RDMA: CDI names, /dev/nvidia*, "
                       "/dev/dri/*, /dev/infiniband/*)");
        } else if (w.rfind("--device-cgroup-rule", 0) == 0) {
            if (w.size() == 20)
                ++i;
            refuse("--device-cgroup-rule opens host devices to the container");
        } else if (w.rfind("--rootfs", 0) == 0 || w.rfind("--volumes-from", 0) == 0) {
            const std::size_t len = w.rfind("--rootfs", 0) == 0 ? 8 : 14;
            if (w.size() == len)
                ++i;
            refuse(w.substr(0, len) + " runs or mounts a host folder or another container's volumes");
        } else if (auto vol = valueOf(words, i, "--volume", "-v")) {
            if (std::string why = hostPathProblem(volumeSource(*vol)); !why.empty())
                refuse("-v " + *vol + ": " + why);
        } else if (auto mnt = valueOf(words, i, "--mount")) {
            if (std::string why = hostPathProblem(mountSource(*mnt)); !why.empty())
                refuse("--mount " + *mnt + ": " + why);
        }
    }
    return out;
}

} // namespace cnp::plan
