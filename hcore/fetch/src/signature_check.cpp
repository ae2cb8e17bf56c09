// Verifying the index's detached signature against the fingerprint allowlist.
#include "gpg_context.hpp"

#include <harness/fetch/repo_keys.hpp>

#include <algorithm>

namespace harness::repo {

using detail::gpg_error_text;
using detail::GpgContext;
using detail::GpgData;
using detail::GpgKey;

namespace {

bool on_allowlist(const std::string &fpr, const std::vector<std::string> &trusted) {
    return !fpr.empty() && std::any_of(trusted.begin(), trusted.end(), [&](const std::string &t) {
        return normalize_fingerprint(t) == fpr;
    });
}

}  // namespace

Result<std::string> verify_detached(const std::filesystem::path &gnupghome, std::string_view data,
                                    std::string_view signature, const std::vector<std::string> &trusted) {
    auto ctx = GpgContext::open(gnupghome);
    if (!ctx) return ctx.error();
    GpgData sig(signature);
    GpgData text(data);
    if (auto err = gpgme_op_verify(ctx->get(), sig.get(), text.get(), nullptr))
        return make_error(HARNESS_ERR_AUTH, "bad signature: not an OpenPGP signature (" + gpg_error_text(err) + ")");
    gpgme_verify_result_t result = gpgme_op_verify_result(ctx->get());
    if (!result || !result->signatures) return make_error(HARNESS_ERR_AUTH, "bad signature: no signature found");

    // Any bad signature refuses the whole file, even next to a good one: the
    // bytes were changed after someone signed them.
    std::string good_untrusted, unknown;
    std::string accepted;
    for (gpgme_signature_t s = result->signatures; s; s = s->next) {
        std::string sig_fpr = s->fpr ? s->fpr : "?";
        switch (gpg_err_code(s->status)) {
        case GPG_ERR_NO_ERROR: break;
        case GPG_ERR_BAD_SIGNATURE:
            return make_error(HARNESS_ERR_AUTH, "bad signature: the index does not match its signature by " + sig_fpr);
        case GPG_ERR_NO_PUBKEY: unknown = sig_fpr; continue;
        default:
            return make_error(HARNESS_ERR_AUTH,
                              "bad signature: signature by " + sig_fpr + " not valid (" + gpg_error_text(s->status) +
                                  ")");
        }
        if (s->summary &
            (GPGME_SIGSUM_RED | GPGME_SIGSUM_KEY_REVOKED | GPGME_SIGSUM_KEY_EXPIRED | GPGME_SIGSUM_SIG_EXPIRED))
            return make_error(HARNESS_ERR_AUTH, "bad signature: key " + sig_fpr + " is revoked or expired");
        // The signature may come from a subkey; the allowlist names either the
        // subkey or its primary key.
        std::string fpr = normalize_fingerprint(sig_fpr);
        std::string primary = fpr;
        GpgKey key;
        if (!gpgme_get_key(ctx->get(), sig_fpr.c_str(), key.out(), 0) && key.get() && key.get()->fpr)
            primary = normalize_fingerprint(key.get()->fpr);
        if (on_allowlist(primary, trusted) || on_allowlist(fpr, trusted)) {
            if (accepted.empty()) accepted = primary;
        } else {
            good_untrusted = primary;
        }
    }
    if (!accepted.empty()) return accepted;
    if (!good_untrusted.empty())
        return make_error(HARNESS_ERR_AUTH,
                          "unknown key: index signed by " + good_untrusted +
                              ", which is not among the trusted fingerprints");
    return make_error(HARNESS_ERR_AUTH,
                      "unknown key: index signed by " + unknown +
                          ", whose public key is not in the daemon's GNUPGHOME");
}

}  // namespace harness::repo
