#include "launch/ContainerImages.h"

#include "core/InputError.h"
#include "launch/EngineFailure.h"
#include "launch/Subprocess.h"

#include <sstream>

namespace cnp::launch {

namespace {

// The strings of a JSON array of strings as the engines print RepoDigests (["a@sha256:…","b@sha256:…"] or
// null); a digest reference holds no quote or backslash.
std::vector<std::string> jsonStrings(const std::string& text) {
    std::vector<std::string> out;
    for (std::size_t at = text.find('"'); at != std::string::npos;) {
        const auto end = text.find('"', at + 1);
        if (end == std::string::npos)
            break;
        out.push_back(text.substr(at + 1, end - at - 1));
        at = text.find('"', end + 1);
    }
    return out;
}

std::string repositoryOf(const std::string& image) {
    std::string name = image.substr(0, image.find('@'));
    const auto colon = name.rfind(':');
    if (colon != std::string::npos && colon > (name.rfind('/') == std::string::npos ? 0 : name.rfind('/')))
        name.erase(colon);
    return name;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words)
        s += (s.empty() ? "" : ", ") + w;
    return s;
}

// The last line the engine printed, for a failure no known cause explains.
std::string lastLine(const ProcessResult& r) {
    std::string text = r.err.empty() ? r.out : r.err;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
}

// Why `use.image` cannot be run ("" when it can), pulling it first when the policy says so.
std::string readyImage(const std::string& engine, const EnvList& env, const ImageUse& use,
                       const std::string& pull, ImageFacts& facts,
                       const std::function<void(const std::string&)>& note) {
    facts = inspectImage(engine, env, use.image);
    if (pull == "never")
        return facts.present ? "" : "not on this host, and container.pull is never";
    if (facts.present && pull != "always")
        return "";
    if (note)
        note("pulling image " + use.image + " (container.pull: " + pull + ")");
    const ProcessResult r = runProcess({engine, "pull", use.image}, env);
    if (r.exitCode != 0) {
        // `docker pull` exits 1, `podman pull` 125: read either as the engine's own failure.
        const EngineFailure f = diagnoseEngineFailure(engine, 125, r.err + r.out, use.image);
        return "cannot be pulled: " + (f.cause.empty() ? lastLine(r) : f.cause);
    }
    facts = inspectImage(engine, env, use.image);
    return facts.present ? "" : "pulled, but " + engine + " image inspect still does not find it";
}

} // namespace

ImageFacts parseImageInspect(const std::string& output, const std::string& image) {
    ImageFacts f;
    std::istringstream in(output);
    std::string id;
    in >> id;
    if (id.empty())
        return f;
    f.present = true;
    f.id = id.rfind("sha256:", 0) == 0 ? id : "sha256:" + id; // podman prints the bare hex
    std::string rest;
    std::getline(in, rest);
    f.repoDigest = repoDigestOf(image, jsonStrings(rest));
    return f;
}

std::string repoDigestOf(const std::string& image, const std::vector<std::string>& repoDigests) {
    const std::string repo = repositoryOf(image);
    for (const auto& d : repoDigests)
        if (d.substr(0, d.find('@')) == repo)
            return d;
    return repoDigests.empty() ? "" : repoDigests.front();
}

ImageFacts inspectImage(const std::string& engine, const EnvList& engineEnv, const std::string& image) {
    const ProcessResult r = runProcess(
        {engine, "image", "inspect", "--format", "{{.Id}} {{json .RepoDigests}}", image}, engineEnv);
    return r.exitCode == 0 ? parseImageInspect(r.out, image) : ImageFacts{};
}

std::map<std::string, ImageFacts> prepareImages(const std::string& engine, const EnvList& engineEnv,
                                                const std::vector<ImageUse>& images, const std::string& pull,
                                                const std::string& planPath,
                                                const std::function<void(const std::string&)>& note) {
    std::map<std::string, ImageFacts> facts;
    std::vector<std::string> problems;
    for (const auto& use : images) {
        if (facts.count(use.image))
            continue;
        const std::string why = readyImage(engine, engineEnv, use, pull, facts[use.image], note);
        if (!why.empty())
            problems.push_back("image " + use.image + " (" + joined(use.configs) + "): " + why);
    }
    if (problems.empty())
        return facts;
    std::string text = std::to_string(problems.size()) + " image" + (problems.size() == 1 ? "" : "s") +
                       " cannot be run with " + engine + ", so no job was started: ";
    for (std::size_t i = 0; i < problems.size(); ++i)
        text += (i ? "; " : "") + problems[i];
    throw InputError(planPath, text);
}

} // namespace cnp::launch
