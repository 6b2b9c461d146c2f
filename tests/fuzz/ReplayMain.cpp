// Runs a fuzz harness (LLVMFuzzerTestOneInput) once on every file of the folders or files given, in
// name order: the seed corpus and the regression inputs of tests/data/fuzz-regressions replay as a
// plain ctest test, without libFuzzer. Exit 0 when every input ran; a finding crashes (or is reported
// by the sanitizers in build-asan).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputsOf(const std::filesystem::path& p) {
    std::vector<std::filesystem::path> out;
    if (std::filesystem::is_directory(p)) {
        for (const auto& e : std::filesystem::directory_iterator(p))
            if (e.is_regular_file() && e.path().filename().string()[0] != '.')
                out.push_back(e.path());
    } else if (std::filesystem::is_regular_file(p)) {
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t runs = 0;
    for (int i = 1; i < argc; ++i)
        for (const auto& file : inputsOf(argv[i])) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
            std::printf("%s (%zu bytes)\n", file.c_str(), bytes.size());
            std::fflush(stdout);
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++runs;
        }
    std::printf("%zu inputs ran\n", runs);
    return 0;
}
