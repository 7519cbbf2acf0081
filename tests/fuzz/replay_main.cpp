// main() for the normal (g++) build: feeds every file of a corpus folder to a fuzz target's
// LLVMFuzzerTestOneInput, so each seed and each crash input ever found runs as a regression test.
// Usage: replay_<target> CORPUS_DIR   (exit 0: every input ran; a crash or broken promise aborts)
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "fuzz_input.hpp"

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " CORPUS_DIR\n";
        return 2;
    }
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(argv[1], ec))
        if (e.is_regular_file()) files.push_back(e.path());
    if (ec || files.empty()) {
        std::cerr << argv[0] << ": no inputs in " << argv[1] << (ec ? " (" + ec.message() + ")" : "") << "\n";
        return 1;
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        std::cout << "replay " << f.filename().string() << std::endl;  // flushed: a crash names its input
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::cout << files.size() << " inputs replayed without a crash\n";
    return 0;
}
