#include <harness/common/crypto.hpp>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace harness {

namespace {

std::span<const std::uint8_t> as_bytes(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

Result<VmKey> parse_key_text(const std::string &text, const std::filesystem::path &file) {
    VmKey key;
    int high = -1;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        int v = hex_value(c);
        if (v < 0) return make_error(HARNESS_ERR_AUTH, "key file " + file.string() + " is not hex");
        if (high < 0) {
            high = v;
        } else {
            key.bytes.push_back(static_cast<std::uint8_t>(high << 4 | v));
            high = -1;
        }
    }
    if (high >= 0 || key.bytes.size() < 16)
        return make_error(HARNESS_ERR_AUTH, "key file " + file.string() + " must hold at least 16 bytes as hex");
    return key;
}

}  // namespace

struct HmacKey::Impl {
    EVP_MAC *mac = nullptr;
    EVP_MAC_CTX *ctx = nullptr;
    ~Impl() {
        EVP_MAC_CTX_free(ctx);
        EVP_MAC_free(mac);
    }
};

HmacKey::HmacKey(const VmKey &key) : impl_(std::make_unique<Impl>()) {
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string("digest", digest, 0), OSSL_PARAM_construct_end()};
    impl_->mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (impl_->mac) impl_->ctx = EVP_MAC_CTX_new(impl_->mac);
    if (!impl_->ctx || !EVP_MAC_init(impl_->ctx, key.bytes.data(), key.bytes.size(), params))
        throw std::runtime_error("HMAC-SHA256 set-up failed");
}

HmacKey::HmacKey(HmacKey &&) noexcept = default;
HmacKey &HmacKey::operator=(HmacKey &&) noexcept = default;
HmacKey::~HmacKey() = default;

Mac HmacKey::mac(std::span<const std::uint8_t> data) {
    Mac out{};
    std::size_t len = 0;
    // Re-initialising with no key keeps the prepared key (OpenSSL 3).
    if (!EVP_MAC_init(impl_->ctx, nullptr, 0, nullptr) || !EVP_MAC_update(impl_->ctx, data.data(), data.size()) ||
        !EVP_MAC_final(impl_->ctx, out.data(), &len, out.size()) || len != out.size())
        throw std::runtime_error("HMAC-SHA256 failed");
    return out;
}

Mac hmac_sha256(const VmKey &key, std::initializer_list<std::span<const std::uint8_t>> parts) {
    // The one-shot HMAC() is OpenSSL 3's cheapest non-deprecated path for many
    // small MACs; the few multi-part callers concatenate first.
    std::vector<std::uint8_t> joined;
    std::span<const std::uint8_t> data;
    if (parts.size() == 1) {
        data = *parts.begin();
    } else {
        for (auto part : parts) joined.insert(joined.end(), part.begin(), part.end());
        data = joined;
    }
    Mac mac{};
    unsigned len = 0;
    if (!HMAC(EVP_sha256(), key.bytes.data(), static_cast<int>(key.bytes.size()), data.data(), data.size(), mac.data(),
              &len))
        throw std::runtime_error("HMAC-SHA256 failed");
    return mac;
}

std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> data) {
    std::array<std::uint8_t, 32> out{};
    SHA256(data.data(), data.size(), out.data());
    return out;
}

bool equal_constant_time(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

void random_bytes(std::span<std::uint8_t> out) {
    if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1) throw std::runtime_error("RAND_bytes failed");
}

std::uint64_t random_u64() {
    std::uint8_t b[8];
    random_bytes(b);
    return harness_get_le(b, 8);
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(bytes.size() * 2);
    for (auto b : bytes) {
        s.push_back(digits[b >> 4]);
        s.push_back(digits[b & 15]);
    }
    return s;
}

Result<VmKey> load_key(const std::filesystem::path &file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
        return make_error(HARNESS_ERR_AUTH, "cannot read key file " + file.string() + ": " + std::strerror(errno));
    if ((st.st_mode & 077) != 0)
        return make_error(HARNESS_ERR_AUTH, "key file " + file.string() + " is accessible by others (chmod 600 it)");
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return make_error(HARNESS_ERR_AUTH, "cannot read key file " + file.string());
    return parse_key_text(text, file);
}

Result<VmKey> load_or_create_key(const std::filesystem::path &file) {
    if (std::filesystem::exists(file)) return load_key(file);
    std::error_code ec;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    std::uint8_t raw[32];
    random_bytes(raw);
    std::string text = to_hex(raw) + "\n";
    // O_EXCL: two daemons creating the same key at once must not both win.
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST) return load_key(file);
        return make_error(HARNESS_ERR_AUTH, "cannot create key file " + file.string() + ": " + std::strerror(errno));
    }
    bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::fsync(fd);
    ::close(fd);
    if (!written) return make_error(HARNESS_ERR_AUTH, "cannot write key file " + file.string());
    return VmKey{std::vector<std::uint8_t>(raw, raw + sizeof raw)};
}

Mac client_proof(const VmKey &key, std::string_view vm, std::span<const std::uint8_t> server_nonce,
                 std::span<const std::uint8_t> client_nonce) {
    return hmac_sha256(key, {as_bytes("harness-client"), as_bytes(vm), server_nonce, client_nonce});
}

Mac server_proof(const VmKey &key, std::string_view vm, std::span<const std::uint8_t> client_nonce,
                 std::span<const std::uint8_t> server_nonce) {
    return hmac_sha256(key, {as_bytes("harness-server"), as_bytes(vm), client_nonce, server_nonce});
}

}  // namespace harness
