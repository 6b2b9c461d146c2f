#include "CommandRegistry.h"

namespace cnp::cli {

std::vector<Command>& commandRegistry() {
    static std::vector<Command> registry; // filled by the CNP_COMMAND registrars before main
    return registry;
}

} // namespace cnp::cli
