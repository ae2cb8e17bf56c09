#include "gpg_context.hpp"

#include <harness/fetch/repo_keys.hpp>

#include <mutex>

namespace harness::repo::detail {

Result<GpgContext> GpgContext::open(const std::filesystem::path &gnupghome) {
    static std::once_flag once;
    std::call_once(once, [] { gpgme_check_version(nullptr); });
    if (auto home = ensure_gnupghome(gnupghome); !home) return home.error();
    if (auto err = gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP))
        return make_error(HARNESS_ERR_INTERNAL, "GnuPG engine unusable: " + gpg_error_text(err));
    gpgme_ctx_t ctx = nullptr;
    if (auto err = gpgme_new(&ctx)) return make_error(HARNESS_ERR_INTERNAL, "gpgme_new: " + gpg_error_text(err));
    GpgContext owner(ctx);
    if (auto err = gpgme_ctx_set_engine_info(ctx, GPGME_PROTOCOL_OpenPGP, nullptr, gnupghome.c_str()))
        return make_error(HARNESS_ERR_INTERNAL,
                          "cannot use GNUPGHOME " + gnupghome.string() + ": " + gpg_error_text(err));
    gpgme_set_protocol(ctx, GPGME_PROTOCOL_OpenPGP);
    // Keys are passphrase-less; never let GnuPG pop up a pinentry in a daemon.
    gpgme_set_pinentry_mode(ctx, GPGME_PINENTRY_MODE_LOOPBACK);
    gpgme_set_offline(ctx, 1);
    return owner;
}

GpgContext::~GpgContext() {
    if (ctx_) gpgme_release(ctx_);
}

GpgData::GpgData() {
    if (gpgme_data_new(&data_)) data_ = nullptr;
}

GpgData::GpgData(std::string_view bytes) {
    if (gpgme_data_new_from_mem(&data_, bytes.data(), bytes.size(), /*copy=*/1)) data_ = nullptr;
}

GpgData::~GpgData() {
    if (data_) gpgme_data_release(data_);
}

std::string GpgData::take() {
    std::string out;
    if (!data_) return out;
    gpgme_data_seek(data_, 0, SEEK_SET);
    char buf[4096];
    ssize_t n;
    while ((n = gpgme_data_read(data_, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    return out;
}

std::string gpg_error_text(gpgme_error_t err) {
    char buf[256];
    gpgme_strerror_r(err, buf, sizeof buf);
    return buf;
}

}  // namespace harness::repo::detail
