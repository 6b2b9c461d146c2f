#pragma once
// The Importer for Nsight Systems SQLite exports (`nsys export --type sqlite`, schema 2.x and 3.x).
// canRead: the SQLite magic, and the file is not a CNP workspace (a truncated or non-nsys SQLite
// file is claimed so that read() can refuse it with a precise message instead of "unknown format").
// read: NsysReader (mapping in docs/nsys-mapping.md); SQLite errors become InputError naming the file.
#include "import/Importer.h"

namespace cnp::nsys {

class NsysImporter : public Importer {
public:
    std::string formatName() const override { return "nsys"; }
    bool canRead(const std::string& path, std::string_view head) const override;
    TraceData read(const std::string& path, const ProgressSink& sink) const override;
};

} // namespace cnp::nsys
