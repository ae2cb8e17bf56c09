// HMAC, hashes and the VM key file (harness/common/crypto.hpp).
#include <harness/common/crypto.hpp>

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace harness;

namespace {

std::span<const std::uint8_t> bytes_of(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

// A fresh directory under /tmp, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "harness-crypto-XXXXXX").string();
        REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

mode_t mode_of(const fs::path &p) {
    struct stat st {};
    REQUIRE(::stat(p.c_str(), &st) == 0);
    return st.st_mode & 0777;
}

}  // namespace

TEST_CASE("HMAC-SHA256 matches RFC 4231 test case 2") {
    VmKey key{{'J', 'e', 'f', 'e'}};
    Mac mac = hmac_sha256(key, {bytes_of("what do ya want for nothing?")});
    CHECK(to_hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("a multi-part HMAC equals the HMAC of the concatenation") {
    VmKey key{{'J', 'e', 'f', 'e'}};
    Mac parts = hmac_sha256(key, {bytes_of("what do ya "), bytes_of(""), bytes_of("want for nothing?")});
    Mac whole = hmac_sha256(key, {bytes_of("what do ya want for nothing?")});
    CHECK(parts == whole);
}

TEST_CASE("SHA-256 of \"abc\"") {
    CHECK(to_hex(sha256(bytes_of("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("constant-time comparison") {
    CHECK(equal_constant_time(bytes_of("abc"), bytes_of("abc")));
    CHECK_FALSE(equal_constant_time(bytes_of("abc"), bytes_of("abd")));
    CHECK_FALSE(equal_constant_time(bytes_of("abc"), bytes_of("ab")));
    CHECK(equal_constant_time(bytes_of(""), bytes_of("")));
}

TEST_CASE("random bytes differ between calls") {
    Nonce a{}, b{};
    random_bytes(a);
    random_bytes(b);
    CHECK(a != b);
    CHECK(random_u64() != random_u64());
}

TEST_CASE("a created key file is mode 0600 and reads back the same key") {
    TempDir dir;
    fs::path file = dir.path / "sub" / "vm.key";
    auto created = load_or_create_key(file);
    REQUIRE(created.ok());
    CHECK(created->bytes.size() == 32);
    CHECK(mode_of(file) == 0600);
    auto again = load_or_create_key(file);
    REQUIRE(again.ok());
    CHECK(again->bytes == created->bytes);
    auto loaded = load_key(file);
    REQUIRE(loaded.ok());
    CHECK(loaded->bytes == created->bytes);
}

TEST_CASE("a key file readable by others is refused") {
    TempDir dir;
    fs::path file = dir.path / "vm.key";
    REQUIRE(load_or_create_key(file).ok());
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    auto k = load_key(file);
    REQUIRE_FALSE(k.ok());
    CHECK(k.error().status == HARNESS_ERR_AUTH);
    CHECK(k.error().message.find("chmod 600") != std::string::npos);
    // load_or_create must not silently replace or accept it either.
    CHECK_FALSE(load_or_create_key(file).ok());
}

TEST_CASE("malformed key files are refused") {
    TempDir dir;
    auto write_key = [&](const std::string &name, const std::string &text) {
        fs::path f = dir.path / name;
        std::ofstream(f) << text;
        REQUIRE(::chmod(f.c_str(), 0600) == 0);
        return f;
    };
    CHECK_FALSE(load_key(write_key("short", "00112233")).ok());
    CHECK_FALSE(load_key(write_key("nothex", std::string(32, 'z'))).ok());
    CHECK_FALSE(load_key(write_key("odd", std::string(33, 'a'))).ok());
    CHECK_FALSE(load_key(dir.path / "missing").ok());
    auto ok = load_key(write_key("spaced", "00112233 44556677\n8899aabb ccddeeff\n"));
    REQUIRE(ok.ok());
    CHECK(to_hex(ok->bytes) == "00112233445566778899aabbccddeeff");
}

TEST_CASE("handshake proofs depend on direction, VM and nonces") {
    VmKey key{std::vector<std::uint8_t>(32, 7)};
    Nonce s{}, c{};
    random_bytes(s);
    random_bytes(c);
    Mac client = client_proof(key, "vm", s, c);
    CHECK(client == client_proof(key, "vm", s, c));
    CHECK(client != server_proof(key, "vm", c, s));
    CHECK(client != client_proof(key, "other", s, c));
    CHECK(client != client_proof(key, "vm", c, s));
    VmKey other{std::vector<std::uint8_t>(32, 8)};
    CHECK(client != client_proof(other, "vm", s, c));
}
