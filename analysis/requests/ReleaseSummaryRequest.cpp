#include "requests/ReleaseSummaryRequest.h"

#include "requests/AblationRequest.h"

namespace cnp {

ReleaseSummary summarizeWorkspace(const Workspace& ws, const AblationOptions& requested) {
    AblationOptions options = requested;
    options.source = AblationSource::Trace; // the gate resamples traced steps, never log figures
    const AblationInputs in = readAblationInputs(ws, options);
    const AblationResult result = computeAblation(in, options);
    return summarizeRelease(in, result, options.skipFirstSteps);
}

} // namespace cnp
