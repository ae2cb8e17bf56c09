// Writing a verified plugin into <cache_lib_dir>/<PKG>/ atomically.
//
// Each file goes to a temporary name in the same directory, is fsync'ed and
// renamed over the old one; then the directory is fsync'ed and the TTL stamp
// written last, so a reader (the resolver) sees either no valid entry or a
// complete one, never a half-written .so. The cache directories must belong to
// the daemon's user and be writable by nobody else: another local user who
// could write there could plant a shared object the daemon would dlopen.
#pragma once

#include <harness/common/loader.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <filesystem>
#include <string_view>

namespace harness::fetch {

// Creates dir (and missing parents) with mode 0700; refuses an existing one
// that is a symlink, belongs to another uid, or is group/world-writable.
Result<void> ensure_private_dir(const std::filesystem::path &dir);

Result<ResolvedPlugin> write_cache_entry(const std::filesystem::path &cache_lib_dir, const ComponentName &name,
                                         std::string_view so_bytes, std::string_view manifest_bytes,
                                         std::chrono::system_clock::time_point valid_until);

}  // namespace harness::fetch
