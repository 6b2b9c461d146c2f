#include "EnvAllowList.h"

#include <array>

namespace cnp {

bool isAllowedEnvName(std::string_view name) {
    static constexpr std::array<std::string_view, 20> allowed = {"CHECKPOINT_OPTIMIZATION",
                                                                 "NCCL_SOCKET_IFNAME",
                                                                 "CUDA_VISIBLE_DEVICES",
                                                                 "NCCL_IB_HCA",
                                                                 "NCCL_ALGO",
                                                                 "NCCL_PROTO",
                                                                 "NCCL_DEBUG",
                                                                 "NCCL_NET",
                                                                 "WORLD_SIZE",
                                                                 "RANK",
                                                                 "LOCAL_RANK",
                                                                 "LOCAL_WORLD_SIZE",
                                                                 "NNODES",
                                                                 "TORCH_COMPILE",
                                                                 "TORCHINDUCTOR_MAX_AUTOTUNE",
                                                                 "PYTORCH_CUDA_ALLOC_CONF",
                                                                 "OMP_NUM_THREADS",
                                                                 "CNP_CONFIG",
                                                                 "CNP_RUN",
                                                                 "CNP_IMAGE"};
    for (auto a : allowed)
        if (a == name)
            return true;
    return false;
}

} // namespace cnp
