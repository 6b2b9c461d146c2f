#pragma once
// `cnp plan lint`: the training image's usage rules checked on a parsed plan, each finding pointing at
// the plan's line and column (docs/plans.md lists the rules with examples). Rule ids:
//   nccl-socket-ifname         NCCL_SOCKET_IFNAME must be eth0 for pods of 1/2/4/8 GPUs, hpn0 for 16
//   reinstall-framework        pip/conda install of torch or deepspeed (argv or an `sh -c` script)
//   deepspeed-prefetch-bucket  zero_optimization.stage3_prefetch_bucket_size other than empty or "auto"
//   deepspeed-config           a DeepSpeed config that cannot be read or is not JSON
//   checkpoint-optimization    CHECKPOINT_OPTIMIZATION set for a workload that does not use DeepSpeed
//   cuda-driver                the image's CUDA needs a newer driver than the nodes report
//   privileged                 `privileged: true` (warning: never passed on); a flag or mount that grants the
//                              container privilege over the host (error: plan/ContainerPrivilege)
//   image                      an image that is not an image reference (plan/ImageReference)
//   log-regex                  logMetric.regex is not RE2 or does not have exactly one capture group
//   capture                    `capture` is not a CNP_CAPTURE value the collector accepts
// plus the parser's own (syntax, encoding, unknown-key, duplicate-key, type, required, extends, ...).
// A value inherited by several configurations is reported once, where it is written.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"
#include "plan/PlanParser.h"

#include <string>
#include <vector>

namespace cnp::plan {

// The rules above on a plan the parser read (findings unsorted; referenced JSON files are read relative
// to the directory of plan.path).
std::vector<Finding> lintPlan(const Plan& plan);
// Parse + lint; findings sorted. The rules run unless the file could not be read as YAML at all (read,
// encoding, too-large, syntax): unknown keys and type errors leave the rest of the plan lintable.
ParseResult lintPlanText(const std::string& text, const std::string& path);
ParseResult lintPlanFile(const std::string& path);

// Whether the workload uses DeepSpeed: `workload.deepspeed:` when written, else a DeepSpeed config in
// the configuration, or a word of its argv containing "deepspeed" (a launcher, a `--deepspeed` flag, a
// `deepspeed/...` model name).
bool usesDeepSpeed(const Plan& plan, const Configuration& c);

// Empty when `capture` is a CNP_CAPTURE value the collector accepts ("" is `all`), else why not, with the
// valid forms (the collector's own parser, collector::CaptureSpec, decides).
std::string captureProblem(const std::string& capture);

} // namespace cnp::plan
