// One libFuzzer program per target (CB_FUZZ_TARGET names it, see fuzz_targets.h): a broken
// invariant aborts with its description, so libFuzzer keeps the input as a crash.

#include "fuzz_targets.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const cb::fuzz::Target *target = [] {
        const cb::fuzz::Target *t = cb::fuzz::findTarget(CB_FUZZ_TARGET);
        if (!t) {
            std::fprintf(stderr, "fuzz: no target \"%s\"\n", CB_FUZZ_TARGET);
            std::abort();
        }
        return t;
    }();
    const std::string broken =
        target->run(std::string_view(reinterpret_cast<const char *>(data), size), *target);
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz %s: %s\n", CB_FUZZ_TARGET, broken.c_str());
        std::abort();
    }
    return 0;
}
