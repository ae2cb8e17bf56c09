// Key management and signing (hpublish, tests, hcored --import-key).
#include "gpg_context.hpp"

#include <harness/fetch/repo_keys.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace harness::repo {

using detail::gpg_error_text;
using detail::GpgContext;
using detail::GpgData;
using detail::GpgKey;

std::string normalize_fingerprint(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == ' ') continue;
        if (!std::isxdigit(static_cast<unsigned char>(c))) return {};
        out.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
    if (out.size() != 40 && out.size() != 64) return {};
    return out;
}

Result<void> ensure_gnupghome(const std::filesystem::path &gnupghome) {
    if (gnupghome.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "no GNUPGHOME given");
    std::error_code ec;
    std::filesystem::create_directories(gnupghome.parent_path(), ec);
    if (::mkdir(gnupghome.c_str(), 0700) != 0 && errno != EEXIST)
        return make_error(HARNESS_ERR_INTERNAL, "cannot create GNUPGHOME " + gnupghome.string());
    struct stat st {};
    if (::lstat(gnupghome.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return make_error(HARNESS_ERR_INTERNAL, "GNUPGHOME " + gnupghome.string() + " is not a directory");
    if (st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)
        return make_error(HARNESS_ERR_AUTH,
                          "unsafe GNUPGHOME " + gnupghome.string() + ": must belong to this user with mode 0700");
    return {};
}

Result<std::vector<std::string>> import_public_key(const std::filesystem::path &gnupghome,
                                                   const std::filesystem::path &key_file) {
    std::ifstream in(key_file, std::ios::binary);
    if (!in) return make_error(HARNESS_ERR_NOT_FOUND, "cannot read key file " + key_file.string());
    std::ostringstream text;
    text << in.rdbuf();
    auto ctx = GpgContext::open(gnupghome);
    if (!ctx) return ctx.error();
    GpgData data(text.str());
    if (auto err = gpgme_op_import(ctx->get(), data.get()))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "import " + key_file.string() + ": " + gpg_error_text(err));
    gpgme_import_result_t result = gpgme_op_import_result(ctx->get());
    std::vector<std::string> fprs;
    for (auto imp = result ? result->imports : nullptr; imp; imp = imp->next)
        if (imp->result == GPG_ERR_NO_ERROR && imp->fpr) {
            auto fpr = normalize_fingerprint(imp->fpr);
            if (!fpr.empty() && std::find(fprs.begin(), fprs.end(), fpr) == fprs.end()) fprs.push_back(fpr);
        }
    if (fprs.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "no OpenPGP key in " + key_file.string());
    return fprs;
}

Result<std::string> export_public_key(const std::filesystem::path &gnupghome, std::string_view fingerprint) {
    auto fpr = normalize_fingerprint(fingerprint);
    if (fpr.empty())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "not a full fingerprint: " + std::string(fingerprint));
    auto ctx = GpgContext::open(gnupghome);
    if (!ctx) return ctx.error();
    gpgme_set_armor(ctx->get(), 1);
    GpgData out;
    if (auto err = gpgme_op_export(ctx->get(), fpr.c_str(), 0, out.get()))
        return make_error(HARNESS_ERR_INTERNAL, "export " + fpr + ": " + gpg_error_text(err));
    auto text = out.take();
    if (text.empty()) return make_error(HARNESS_ERR_NOT_FOUND, "no key " + fpr + " in " + gnupghome.string());
    return text;
}

Result<std::string> generate_signing_key(const std::filesystem::path &gnupghome, std::string_view user_id) {
    auto ctx = GpgContext::open(gnupghome);
    if (!ctx) return ctx.error();
    std::string uid(user_id);
    if (auto err =
            gpgme_op_createkey(ctx->get(), uid.c_str(), "ed25519", 0, 0, nullptr,
                               GPGME_CREATE_SIGN | GPGME_CREATE_NOPASSWD | GPGME_CREATE_NOEXPIRE | GPGME_CREATE_FORCE))
        return make_error(HARNESS_ERR_INTERNAL, "key generation failed: " + gpg_error_text(err));
    gpgme_genkey_result_t result = gpgme_op_genkey_result(ctx->get());
    if (!result || !result->fpr) return make_error(HARNESS_ERR_INTERNAL, "key generation returned no fingerprint");
    return normalize_fingerprint(result->fpr);
}

Result<std::string> sign_detached(const std::filesystem::path &gnupghome, std::string_view fingerprint,
                                  std::string_view data) {
    auto fpr = normalize_fingerprint(fingerprint);
    if (fpr.empty())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "not a full fingerprint: " + std::string(fingerprint));
    auto ctx = GpgContext::open(gnupghome);
    if (!ctx) return ctx.error();
    GpgKey key;
    if (auto err = gpgme_get_key(ctx->get(), fpr.c_str(), key.out(), /*secret=*/1))
        return make_error(HARNESS_ERR_NOT_FOUND,
                          "no secret key " + fpr + " in " + gnupghome.string() + ": " + gpg_error_text(err));
    gpgme_set_armor(ctx->get(), 1);
    gpgme_signers_clear(ctx->get());
    if (auto err = gpgme_signers_add(ctx->get(), key.get()))
        return make_error(HARNESS_ERR_INTERNAL, "signer " + fpr + ": " + gpg_error_text(err));
    GpgData in(data);
    GpgData out;
    if (auto err = gpgme_op_sign(ctx->get(), in.get(), out.get(), GPGME_SIG_MODE_DETACH))
        return make_error(HARNESS_ERR_INTERNAL, "signing failed: " + gpg_error_text(err));
    gpgme_sign_result_t result = gpgme_op_sign_result(ctx->get());
    if (!result || result->invalid_signers || !result->signatures)
        return make_error(HARNESS_ERR_INTERNAL, "signing with " + fpr + " produced no signature");
    return out.take();
}

}  // namespace harness::repo
