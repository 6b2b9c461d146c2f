#pragma once
// Ablation studies: the logical groups of runs one ablation compares, a plan's configurations and their
// runs (docs/metrics.md, "Studies"). Not to be confused with a study folder (`*.cnpstudy`,
// store/StudyFolder.h), which is a way of storing a workspace in shards: an ablation study is a set of
// runs inside any workspace, a study folder or a single file. A workspace may hold several ablation
// studies (the demo: a synthetic 2 x 8-GPU study and a real single-GPU H200 ablation), and an ablation
// compares the runs of one of them unless asked to mix them.
// Pure: from the runs' records and attributes (run_attributes, docs/schema.md).
#include "core/Ids.h"
#include "core/RunAttributeKeys.h"
#include "core/RunRecord.h"

#include <map>
#include <string>
#include <vector>

namespace cnp {

// Where a run's study came from, strongest first.
enum class StudyOrigin {
    Explicit,  // run attribute `study` (cnp ingest --study, cnp edit --study, cnp synth, cnp run)
    Plan,      // run attribute plan.name (else the stem of plan.path): launched by cnp run before `study`
    Synthetic, // a synthetic run's container image "synthetic:NAME" (cnp synth before `study`)
    Implicit   // none of those: grouped by world size, GPU model and synthetic flag (implicitStudyName)
};
const char* toString(StudyOrigin origin); // "explicit", "plan", "synthetic", "implicit"

// Longest study name accepted from a command line or stored attribute; a longer stored one is cut.
inline constexpr std::size_t kMaxStudyNameBytes = 200;

struct RunStudy {
    std::string name;
    StudyOrigin origin = StudyOrigin::Implicit;
};

// The study of a run without one: "<world size>x <first GPU model>" (e.g. "1x NVIDIA H200",
// "16x unknown GPU"), with " (synthetic)" for a generated run, so runs of different sizes or GPUs never
// meet by accident.
std::string implicitStudyName(const RunRecord& run);

// The study of `run` (StudyOrigin gives the rule). A name is a label like a configuration's (the CLI and
// the report neutralise its control characters where they print it); a stored one longer than
// kMaxStudyNameBytes is cut there, and an empty one counts as none.
RunStudy studyOfRun(const RunRecord& run, const std::map<std::string, std::string>& attributes);

// One run as the grouping sees it.
struct StudyMember {
    RunId run;
    std::string config;
    std::int32_t worldSize = 1;
    bool synthetic = false;
    RunStudy study;
};

// `run` with its study (studyOfRun); world size = the larger of the recorded size and the ranks stored.
StudyMember studyMemberOf(const RunRecord& run, const std::map<std::string, std::string>& attributes);

struct AblationStudy {
    std::string name;
    StudyOrigin origin = StudyOrigin::Implicit;
    std::vector<RunId> runs;          // in the order given (the workspace's run order)
    std::vector<std::string> configs; // in order of first appearance among `runs`
    RunId latest;                     // the highest run id: its most recently ingested run
    std::int32_t minWorldSize = 0, maxWorldSize = 0;
    bool synthetic = false; // some run of it is synthetic
};

// The studies of `members`, newest first (by `latest`). O(runs log studies).
std::vector<AblationStudy> groupStudies(const std::vector<StudyMember>& members);

// Which study an ablation compares. `requested` non-empty: that study (InputError naming `path` and the
// studies there are when none has that name). Otherwise the newest study holding every one of
// `namedConfigs` that has runs at all (the --order and --baseline of a request); with none named, the
// newest study. InputError when the named configurations are spread over studies none of which holds
// them all. `studies` must not be empty.
const AblationStudy& chooseStudy(const std::vector<AblationStudy>& studies, const std::string& requested,
                                 const std::vector<std::string>& namedConfigs, const std::string& path);

// `global` (a plan order over every study) with the positions of `study`'s configurations refilled by
// `reordered` in its order; configurations of `reordered` that `global` lacks are appended. The other
// studies' configurations keep their places. O(n^2) in the configurations (tens).
std::vector<std::string> mergeStudyOrder(const std::vector<std::string>& global,
                                         const std::vector<std::string>& studyConfigs,
                                         const std::vector<std::string>& reordered);

} // namespace cnp
