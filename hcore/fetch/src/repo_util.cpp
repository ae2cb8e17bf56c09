// Small helpers of the repository format: UTC times, architectures, hashes.
#include <harness/common/crypto.hpp>
#include <harness/fetch/repo_index.hpp>

#include <cstdio>
#include <ctime>

namespace harness::repo {

std::string format_utc(std::chrono::system_clock::time_point t) {
    std::time_t secs = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::optional<std::chrono::system_clock::time_point> parse_utc(std::string_view text) {
    // Only the form we write: YYYY-MM-DDTHH:MM:SSZ (UTC, no fractions, no offset).
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
        text[16] != ':' || text[19] != 'Z')
        return std::nullopt;
    std::string s(text);
    std::tm tm{};
    if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                    &tm.tm_min, &tm.tm_sec) != 6)
        return std::nullopt;
    if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
        tm.tm_sec > 60)
        return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    std::time_t secs = timegm(&tm);
    if (secs == static_cast<std::time_t>(-1)) return std::nullopt;
    return std::chrono::system_clock::from_time_t(secs);
}

std::string host_arch() {
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__i386__)
    return "i386";
#elif defined(__arm__)
    return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "ppc64le";
#elif defined(__s390x__)
    return "s390x";
#else
    return "unknown";
#endif
}

std::string elf_arch(std::string_view so) {
    // e_ident: "\x7fELF", class, data (1 = little endian); e_machine at offset 18.
    if (so.size() < 20 ||
        so.substr(0, 4) !=
            "\x7f"
            "ELF")
        return {};
    auto b = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(so[i])); };
    bool little = b(5) == 1;
    unsigned machine = little ? (b(18) | b(19) << 8) : (b(19) | b(18) << 8);
    bool is64 = b(4) == 2;
    switch (machine) {
    case 62: return "x86_64";
    case 183: return "aarch64";
    case 3: return "i386";
    case 40: return "arm";
    case 243: return is64 ? "riscv64" : "riscv32";
    case 21: return little ? "ppc64le" : "ppc64";
    case 22: return "s390x";
    default: return "elf-machine-" + std::to_string(machine);
    }
}

std::string sha256_hex(std::string_view bytes) {
    auto digest = sha256({reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()});
    return to_hex(digest);
}

}  // namespace harness::repo
