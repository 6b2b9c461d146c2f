#pragma once
// Edits of a plan's YAML text that keep everything else as written (comments, order, quoting of other
// values): the Plans page's form changes one value at a time through these, so the text stays the
// user's. Positions are the parser's (1-based line, byte column). Block scalars (| >) and flow-style
// configurations (`- {name: A}`) are not edited in place: the functions return nullopt and the caller
// asks the user to edit the text.
#include "plan/Plan.h"

#include <optional>
#include <string>

namespace cnp::plan {

// `value` as a YAML scalar: plain when YAML reads it back as the same text, else double-quoted.
std::string yamlScalar(const std::string& value);
// Replaces the scalar that starts at `pos`.
std::optional<std::string> replaceScalar(const std::string& text, SourcePos pos, const std::string& value);
// Sets `key` of configuration `c` (as parsed from `text`) to `value`: replaces the value where the
// configuration writes the key, else inserts `key: value` on the line after its `name:`.
std::optional<std::string> setConfigurationKey(const std::string& text, const Configuration& c,
                                               const std::string& key, const std::string& value);
// Renames configuration `index` of `plan` (parsed from `text`) and every `extends:` that names it.
std::optional<std::string> renameConfiguration(const std::string& text, const Plan& plan, std::size_t index,
                                               const std::string& newName);
// Appends `- name: NAME` (and `extends: PARENT` unless empty) to the block-style `configurations:` list.
std::optional<std::string> appendConfiguration(const std::string& text, const std::string& name,
                                               const std::string& parent);

} // namespace cnp::plan
