// harness/fetch/repo_keys.hpp — OpenPGP keys and detached signatures via GPGME.
//
// Every function works in an explicit GNUPGHOME (the daemon's own, default
// <root>/gnupg, or a publisher's), never the user's ~/.gnupg. Trust is not
// GnuPG's web of trust: a signature counts only when its key's full
// fingerprint is on the caller's allowlist.
#pragma once

#include <harness/common/result.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace harness::repo {

// Upper-case hex without spaces; "" unless it is a full v4 (40) or v5 (64)
// fingerprint. Short key ids are never accepted.
std::string normalize_fingerprint(std::string_view text);

// Creates the directory with mode 0700 if absent; refuses one that others can
// write or that belongs to another user.
Result<void> ensure_gnupghome(const std::filesystem::path &gnupghome);

// Imports the public key(s) in key_file (armored or binary); returns the
// fingerprints of the keys it holds (already present ones included).
Result<std::vector<std::string>> import_public_key(const std::filesystem::path &gnupghome,
                                                   const std::filesystem::path &key_file);
// The armored public key for a fingerprint.
Result<std::string> export_public_key(const std::filesystem::path &gnupghome, std::string_view fingerprint);
// A new passphrase-less ed25519 signing key; returns its fingerprint.
Result<std::string> generate_signing_key(const std::filesystem::path &gnupghome, std::string_view user_id);
// An armored detached signature of data by the (secret) key fingerprint.
Result<std::string> sign_detached(const std::filesystem::path &gnupghome, std::string_view fingerprint,
                                  std::string_view data);

// Checks a detached signature (armored or binary). Succeeds with the signing
// key's primary fingerprint when a good signature comes from a key on the
// allowlist. Errors start with the reason: "bad signature", "unknown key".
Result<std::string> verify_detached(const std::filesystem::path &gnupghome, std::string_view data,
                                    std::string_view signature, const std::vector<std::string> &trusted);

}  // namespace harness::repo
