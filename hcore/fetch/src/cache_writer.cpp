#include "cache_writer.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace harness::fetch {

namespace fs = std::filesystem;

namespace {

Error cache_error(const std::string &what) {
    return make_error(HARNESS_ERR_INTERNAL, "cache: " + what);
}

Result<void> check_dir(const fs::path &dir) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return cache_error("cannot stat " + dir.string() + ": " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) return cache_error(dir.string() + " is not a directory (or is a symlink)");
    if (st.st_uid != ::geteuid()) return cache_error(dir.string() + " belongs to another user; refusing to use it");
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return cache_error(dir.string() + " is writable by group or others; refusing to use it");
    return {};
}

Result<void> write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return cache_error(std::string("write: ") + std::strerror(errno));
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

// Writes bytes to a fresh temporary file in dir; returns its path.
Result<fs::path> write_temp(const fs::path &dir, const std::string &final_name, std::string_view bytes) {
    std::string templ = (dir / ("." + final_name + ".tmp.XXXXXX")).string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    int fd = ::mkostemp(buf.data(), O_CLOEXEC);
    if (fd < 0) return cache_error("cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
    fs::path tmp(buf.data());
    auto ok = write_all(fd, bytes);
    if (ok && ::fchmod(fd, 0644) != 0) ok = cache_error(std::string("fchmod: ") + std::strerror(errno));
    if (ok && ::fsync(fd) != 0) ok = cache_error(std::string("fsync: ") + std::strerror(errno));
    if (::close(fd) != 0 && ok) ok = cache_error(std::string("close: ") + std::strerror(errno));
    if (!ok) {
        ::unlink(tmp.c_str());
        return ok.error();
    }
    return tmp;
}

Result<void> fsync_dir(const fs::path &dir) {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return cache_error("open " + dir.string() + ": " + std::strerror(errno));
    int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0) return cache_error("fsync " + dir.string() + ": " + std::strerror(errno));
    return {};
}

}  // namespace

Result<void> ensure_private_dir(const fs::path &dir) {
    if (dir.empty()) return cache_error("empty directory name");
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) {
        if (errno != ENOENT) return cache_error("cannot stat " + dir.string() + ": " + std::strerror(errno));
        if (dir.has_parent_path() && dir.parent_path() != dir) {
            std::error_code ec;
            if (!fs::exists(dir.parent_path(), ec))
                if (auto r = ensure_private_dir(dir.parent_path()); !r) return r;
        }
        if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
            return cache_error("cannot create " + dir.string() + ": " + std::strerror(errno));
    }
    return check_dir(dir);
}

Result<ResolvedPlugin> write_cache_entry(const fs::path &cache_lib_dir, const ComponentName &name,
                                         std::string_view so_bytes, std::string_view manifest_bytes,
                                         std::chrono::system_clock::time_point valid_until) {
    if (auto r = ensure_private_dir(cache_lib_dir); !r) return r.error();
    fs::path dir = cache_lib_dir / name.package;
    if (auto r = ensure_private_dir(dir); !r) return r.error();

    ResolvedPlugin where{dir / (name.component + ".so"), dir / (name.component + ".json"), PluginOrigin::fetched};
    // Invalidate the old entry first: between the two renames below a reader
    // must not take a new .so with an old manifest for valid.
    std::error_code ec;
    fs::remove(dir / (name.component + ".fetched"), ec);

    auto so_tmp = write_temp(dir, name.component + ".so", so_bytes);
    if (!so_tmp) return so_tmp.error();
    auto man_tmp = write_temp(dir, name.component + ".json", manifest_bytes);
    if (!man_tmp) {
        ::unlink(so_tmp->c_str());
        return man_tmp.error();
    }
    auto discard = [&] {
        ::unlink(so_tmp->c_str());
        ::unlink(man_tmp->c_str());
        ::unlink(where.shared_object.c_str());
        ::unlink(where.manifest.c_str());
    };
    if (::rename(so_tmp->c_str(), where.shared_object.c_str()) != 0 ||
        ::rename(man_tmp->c_str(), where.manifest.c_str()) != 0) {
        auto e = cache_error("rename into " + dir.string() + ": " + std::strerror(errno));
        discard();
        return e;
    }
    if (auto r = fsync_dir(dir); !r) {
        discard();
        return r.error();
    }
    if (auto r = write_cache_stamp(cache_lib_dir, name, valid_until); !r) {
        discard();
        return r.error();
    }
    return where;
}

}  // namespace harness::fetch
