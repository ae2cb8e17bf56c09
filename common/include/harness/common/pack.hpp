// harness/common/pack.hpp — the pack buffer in C++: typed, little-endian, bounds-checked.
//
// A thin layer over the C helpers in plugin.h so that the daemon, Hlib and C
// plugins share one encoding and one implementation. Packer owns a growable
// buffer; Unpacker reads a borrowed one and turns every short or mistyped read
// into an error (never a crash). Both are used for wire bodies and for
// user-level pack/unpack.
#pragma once

#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

using Bytes = std::vector<std::uint8_t>;

class Packer {
public:
    Packer() = default;
    Packer(const Packer &) = delete;
    Packer &operator=(const Packer &) = delete;
    Packer(Packer &&other) noexcept : b_(other.b_) { other.b_ = {}; }
    Packer &operator=(Packer &&other) noexcept {
        if (this != &other) {
            harness_buf_free(&b_);
            b_ = other.b_;
            other.b_ = {};
        }
        return *this;
    }
    ~Packer() { harness_buf_free(&b_); }

    Packer &i32(std::int32_t v) {
        harness_pack_i32(&b_, v);
        return *this;
    }
    Packer &i64(std::int64_t v) {
        harness_pack_i64(&b_, v);
        return *this;
    }
    Packer &u64(std::uint64_t v) {
        harness_pack_u64(&b_, v);
        return *this;
    }
    Packer &f64(double v) {
        harness_pack_f64(&b_, v);
        return *this;
    }
    Packer &boolean(bool v) {
        harness_pack_bool(&b_, v);
        return *this;
    }
    Packer &str(std::string_view s) {
        harness_pack_strn(&b_, s.data(), s.size());
        return *this;
    }
    Packer &bytes(std::span<const std::uint8_t> p) {
        harness_pack_bytes(&b_, p.data(), p.size());
        return *this;
    }
    // Appends an already packed sequence of items.
    Packer &raw(std::span<const std::uint8_t> p) {
        harness_buf_append(&b_, p.data(), p.size());
        return *this;
    }

    bool failed() const { return b_.error != 0; }
    std::span<const std::uint8_t> view() const { return {b_.data, b_.len}; }
    std::size_t size() const { return b_.len; }
    Bytes take() const { return Bytes(b_.data, b_.data + b_.len); }
    harness_buf *c_buf() { return &b_; }
    void clear() {
        b_.len = 0;
        b_.error = 0;
    }

private:
    harness_buf b_{};
};

class Unpacker {
public:
    explicit Unpacker(std::span<const std::uint8_t> data) : r_(harness_reader_make(data.data(), data.size())) {}

    bool i32(std::int32_t &v) { return harness_unpack_i32(&r_, &v) == 0; }
    bool i64(std::int64_t &v) { return harness_unpack_i64(&r_, &v) == 0; }
    bool u64(std::uint64_t &v) { return harness_unpack_u64(&r_, &v) == 0; }
    bool f64(double &v) { return harness_unpack_f64(&r_, &v) == 0; }
    bool boolean(bool &v) {
        int b = 0;
        if (harness_unpack_bool(&r_, &b) != 0) return false;
        v = b != 0;
        return true;
    }
    bool str(std::string &s) {
        const char *p = nullptr;
        std::size_t n = 0;
        if (harness_unpack_str(&r_, &p, &n) != 0) return false;
        s.assign(p, n);
        return true;
    }
    bool str_view(std::string_view &s) {
        const char *p = nullptr;
        std::size_t n = 0;
        if (harness_unpack_str(&r_, &p, &n) != 0) return false;
        s = std::string_view(p, n);
        return true;
    }
    bool bytes(std::span<const std::uint8_t> &s) {
        const void *p = nullptr;
        std::size_t n = 0;
        if (harness_unpack_bytes(&r_, &p, &n) != 0) return false;
        s = {static_cast<const std::uint8_t *>(p), n};
        return true;
    }
    bool bytes(Bytes &out) {
        std::span<const std::uint8_t> s;
        if (!bytes(s)) return false;
        out.assign(s.begin(), s.end());
        return true;
    }

    int peek_type() const { return harness_peek_type(&r_); }
    bool failed() const { return r_.error != 0; }
    bool done() const { return harness_reader_done(&r_); }
    std::span<const std::uint8_t> rest() const { return {r_.data + r_.pos, r_.len - r_.pos}; }
    harness_reader *c_reader() { return &r_; }

private:
    harness_reader r_;
};

}  // namespace harness
