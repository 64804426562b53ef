// Runs a fuzz target over every file of its corpus folders, without
// libFuzzer: the sanitizer build in CI replays the corpus this way with any
// compiler. Usage: fuzz-X-corpus DIR|FILE...
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

void run_one(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "input %s (%zu bytes)\n", file.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::vector<fs::path> inputs_of(const fs::path& arg) {
    std::vector<fs::path> files;
    if (!fs::is_directory(arg))
        return {arg};
    for (const auto& entry : fs::directory_iterator(arg))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    return files;
}

} // namespace

int main(int argc, char** argv) {
    size_t n = 0;
    for (int i = 1; i < argc; ++i)
        for (const fs::path& file : inputs_of(argv[i])) {
            run_one(file);
            ++n;
        }
    std::printf("%zu inputs ran without a finding\n", n);
    return n == 0 ? 1 : 0;
}
