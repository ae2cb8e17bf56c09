// RAII owners for GPGME contexts and data buffers bound to one GNUPGHOME.
#pragma once

#include <harness/common/result.hpp>

#include <gpgme.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace harness::repo::detail {

class GpgContext {
public:
    static Result<GpgContext> open(const std::filesystem::path &gnupghome);
    GpgContext(GpgContext &&other) noexcept : ctx_(other.ctx_) { other.ctx_ = nullptr; }
    GpgContext &operator=(GpgContext &&) = delete;
    ~GpgContext();
    gpgme_ctx_t get() const { return ctx_; }

private:
    explicit GpgContext(gpgme_ctx_t ctx) : ctx_(ctx) {}
    gpgme_ctx_t ctx_ = nullptr;
};

class GpgData {
public:
    GpgData();                                 // empty, for output
    explicit GpgData(std::string_view bytes);  // input (copied)
    GpgData(const GpgData &) = delete;
    GpgData &operator=(const GpgData &) = delete;
    ~GpgData();
    bool ok() const { return data_ != nullptr; }
    gpgme_data_t get() const { return data_; }
    std::string take();  // the written bytes

private:
    gpgme_data_t data_ = nullptr;
};

class GpgKey {
public:
    GpgKey() = default;
    GpgKey(const GpgKey &) = delete;
    GpgKey &operator=(const GpgKey &) = delete;
    ~GpgKey() {
        if (key_) gpgme_key_unref(key_);
    }
    gpgme_key_t *out() { return &key_; }
    gpgme_key_t get() const { return key_; }

private:
    gpgme_key_t key_ = nullptr;
};

std::string gpg_error_text(gpgme_error_t err);

}  // namespace harness::repo::detail
