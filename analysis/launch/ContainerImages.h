#pragma once
// The images of a container study, checked once before its first job (issue 28: a missing image failed
// every job, one after the other, with "exit code 125"): `ENGINE image inspect` each distinct image; pull
// it when the plan's `container.pull` says so (`missing`: when absent, the engines' own default; `always`;
// `never`: an absent image is an error); and keep what the engine says the image is — its ID and, where it
// has one, its registry digest — for the runs' provenance (run attributes launch.image_id and
// launch.image_digest, docs/schema.md).
#include "launch/CollectorEnvironment.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cnp::launch {

struct ImageFacts {
    bool present = false;
    std::string id;         // "sha256:<hex>": the local image ID (its configuration's digest)
    std::string repoDigest; // "REPOSITORY@sha256:<hex>" from the engine's RepoDigests; "" when none
};

// `ENGINE image inspect --format '{{.Id}} {{json .RepoDigests}}' IMAGE`'s output for `image`, read back.
ImageFacts parseImageInspect(const std::string& output, const std::string& image);

// The RepoDigests entry of `image`'s own repository (the reference without tag and digest), else the first;
// "" when there is none (an image built or imported here has no registry digest).
std::string repoDigestOf(const std::string& image, const std::vector<std::string>& repoDigests);

// What the engine knows of `image` (present = false when it has no such image).
ImageFacts inspectImage(const std::string& engine, const EnvList& engineEnv, const std::string& image);

struct ImageUse {
    std::string image;
    std::vector<std::string> configs; // the configurations that run it, in plan order
};

// Checks (and per `pull`: "missing", "always" or "never", pulls) every image once; `note` hears each pull
// before it starts. Returns the facts per image. Throws InputError naming `planPath` and, for every image
// that cannot be run, its configurations and the engine's cause (launch/EngineFailure).
std::map<std::string, ImageFacts> prepareImages(const std::string& engine, const EnvList& engineEnv,
                                                const std::vector<ImageUse>& images, const std::string& pull,
                                                const std::string& planPath,
                                                const std::function<void(const std::string&)>& note);

} // namespace cnp::launch
