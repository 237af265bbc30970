#pragma once
// SHA-256 (FIPS 180-4), used for content digests of scenarios in the workspace.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace cb {

class Sha256
{
public:
    Sha256();
    void update(std::string_view data);
    std::array<std::uint8_t, 32> finish();

    /// Lower-case hex digest of `data`.
    static std::string hex(std::string_view data);

private:
    void block(const std::uint8_t *p);

    std::array<std::uint32_t, 8> m_h;
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_used = 0;
    std::uint64_t m_bits = 0;
};

} // namespace cb
