#pragma once
// A folder of output files (a CSV export, a CSV report bundle) that appears only when complete (issue
// 33.6: a failed CSV export or CSV report on a full disk left its folder behind). Files are written into a
// fresh temporary folder beside `dir` ("<dir>.partial-<pid>-<n>", created with mkdir, so never an existing
// folder or symlink); commit() renames it to `dir` when `dir` does not exist, or moves each file into the
// existing folder `dir` (replacing a regular file of that name; OutputFile's rules). Destroying an
// uncommitted folder removes the temporary folder and any parent folders the constructor created, so a
// failed or interrupted command leaves nothing it made. An existing `dir` that is not a folder (or is a
// symlink) is refused with an InputError naming it, as is a file in it that is not a regular file.
#include "core/InputError.h"

#include <string>
#include <vector>

namespace cnp {

class OutputFolder {
public:
    explicit OutputFolder(std::string dir);
    ~OutputFolder();
    OutputFolder(const OutputFolder&) = delete;
    OutputFolder& operator=(const OutputFolder&) = delete;

    // Where file `name` (no folder part) is written until commit().
    std::string file(const std::string& name);
    // Runs write(file(name)); an InputError it throws names `dir`/`name` (where the file is meant to be),
    // not the temporary folder.
    template <class Write> void write(const std::string& name, Write&& write) {
        const std::string at = file(name);
        try {
            write(at);
        } catch (const InputError& e) {
            throw InputError(dir_ + "/" + name, e.message(), e.byteOffset());
        }
    }
    void commit();
    const std::string& path() const { return dir_; }

private:
    std::string dir_, partial_;
    std::string createdParent_; // the topmost parent folder the constructor created, "" when none
    std::vector<std::string> files_;
    bool committed_ = false;
};

} // namespace cnp
