#include "requests/MfuRequest.h"

#include "store/MetaKeys.h"
#include "store/Workspace.h"
#include "store/WorkspaceSettingsReader.h"

namespace cnp {

MfuInputs workspaceMfuInputs(const Workspace& ws) {
    return mfuInputsOf(readWorkspaceSettings(ws));
}

void storeMfuInputs(Workspace& ws, const MfuInputs& inputs) {
    const MfuInputTexts texts = mfuInputTexts(ws.path(), inputs);
    ws.setMeta(std::string(metakeys::kMfuFlopsPerToken), texts.flopsPerToken);
    ws.setMeta(std::string(metakeys::kMfuPeakFlops), texts.peakFlops);
}

} // namespace cnp
