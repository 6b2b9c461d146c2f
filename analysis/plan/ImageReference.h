#pragma once
// Container image references as the engines and Kubernetes read them (the distribution/reference
// grammar): [DOMAIN[:PORT]/]PATH[:TAG][@DIGEST], PATH lower-case components separated by '/', each
// alphanumerics joined by '.', '_', '__' or '-'s; TAG [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}; DIGEST
// ALGORITHM:HEX (hex of at least 32 digits); the name at most 255 characters. An image is the word that
// ends the engine's options, so a value such as "--privileged" or "-v=/:/host" would be read as an option:
// it is never an image. O(length).
#include <string>

namespace cnp::plan {

// Empty when `image` is a valid reference, else why not (for a lint finding or a backend's refusal).
std::string imageReferenceProblem(const std::string& image);

} // namespace cnp::plan
