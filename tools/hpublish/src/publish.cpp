#include <harness/fetch/repo_keys.hpp>
#include <harness/publish/publish.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace harness::publish {

namespace fs = std::filesystem;

Result<std::string> read_file(const fs::path &file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return make_error(HARNESS_ERR_NOT_FOUND, "cannot read " + file.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

namespace {

std::optional<PluginFiles> pair_for(const fs::path &manifest) {
    fs::path so = manifest;
    so.replace_extension(".so");
    std::error_code ec;
    if (!fs::is_regular_file(manifest, ec) || !fs::is_regular_file(so, ec)) return std::nullopt;
    return PluginFiles{so, manifest};
}

}  // namespace

Result<std::vector<PluginFiles>> find_plugins(const fs::path &arg) {
    std::error_code ec;
    std::vector<PluginFiles> found;
    if (fs::is_directory(arg, ec)) {
        for (const auto &e : fs::recursive_directory_iterator(arg, ec))
            if (e.path().extension() == ".json")
                if (auto p = pair_for(e.path())) found.push_back(*p);
        std::sort(found.begin(), found.end(),
                  [](const PluginFiles &a, const PluginFiles &b) { return a.manifest < b.manifest; });
        if (found.empty())
            return make_error(HARNESS_ERR_NOT_FOUND,
                              "no plugin (COMP.json with COMP.so beside it) under " + arg.string());
        return found;
    }
    fs::path manifest = arg;
    if (manifest.extension() == ".so") manifest.replace_extension(".json");
    if (auto p = pair_for(manifest)) return std::vector<PluginFiles>{*p};
    return make_error(HARNESS_ERR_NOT_FOUND, arg.string() + ": not a plugin manifest with its .so beside it");
}

Result<PreparedPlugin> prepare_plugin(const PluginFiles &files, std::optional<std::chrono::seconds> ttl) {
    auto manifest_bytes = read_file(files.manifest);
    if (!manifest_bytes) return manifest_bytes.error();
    auto so_bytes = read_file(files.shared_object);
    if (!so_bytes) return so_bytes.error();
    auto manifest = parse_manifest(*manifest_bytes);
    if (!manifest)
        return make_error(manifest.error().status, manifest.error().message + " (" + files.manifest.string() + ")");
    if (manifest->component != files.manifest.stem().string())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          files.manifest.string() + " describes component " + manifest->component + ", not " +
                              files.manifest.stem().string());
    auto entry = repo::make_entry(*manifest, *so_bytes, *manifest_bytes);
    if (!entry) return entry.error();
    if (ttl) entry->cache_ttl_seconds = ttl->count();
    return PreparedPlugin{std::move(*entry), std::move(*so_bytes), std::move(*manifest_bytes)};
}

Result<repo::RepoIndex> load_index(const fs::path &repo_dir) {
    std::error_code ec;
    fs::path file = repo_dir / repo::kIndexFile;
    if (!fs::exists(file, ec)) {
        repo::RepoIndex empty;
        empty.repository = repo_dir.filename().string();
        return empty;
    }
    auto text = read_file(file);
    if (!text) return text.error();
    auto index = repo::parse_index(*text);
    if (!index) return make_error(index.error().status, index.error().message + " (" + file.string() + ")");
    return index;
}

Result<void> write_repo_file(const fs::path &repo_dir, const std::string &relative, std::string_view bytes) {
    if (!repo::is_safe_relative_path(relative))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "unsafe path " + relative);
    fs::path target = repo_dir / relative;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    if (ec)
        return make_error(HARNESS_ERR_INTERNAL, "cannot create " + target.parent_path().string() + ": " + ec.message());
    fs::path tmp = target;
    tmp += ".tmp." + std::to_string(::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return make_error(HARNESS_ERR_INTERNAL, "cannot create " + tmp.string() + ": " + std::strerror(errno));
    std::string_view rest = bytes;
    bool ok = true;
    while (ok && !rest.empty()) {
        ssize_t n = ::write(fd, rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            ok = false;
        else
            rest.remove_prefix(static_cast<std::size_t>(n));
    }
    ok = ok && ::fsync(fd) == 0;
    ok = (::close(fd) == 0) && ok;
    if (!ok || ::rename(tmp.c_str(), target.c_str()) != 0) {
        auto e = make_error(HARNESS_ERR_INTERNAL, "cannot write " + target.string() + ": " + std::strerror(errno));
        ::unlink(tmp.c_str());
        return e;
    }
    return {};
}

Result<void> write_signed_index(const fs::path &repo_dir, const repo::RepoIndex &index, const fs::path &gnupghome,
                                const std::string &signer) {
    std::string text = repo::serialize_index(index);
    std::string signature;
    if (!signer.empty()) {
        auto sig = repo::sign_detached(gnupghome, signer, text);
        if (!sig) return sig.error();
        signature = std::move(*sig);
    }
    // Signature first, then the index: a client between the two renames sees a
    // mismatch (the fetcher re-reads once after a pause), never an index
    // without its signature.
    std::error_code ec;
    if (signature.empty())
        fs::remove(repo_dir / repo::kSignatureFile, ec);
    else if (auto r = write_repo_file(repo_dir, repo::kSignatureFile, signature); !r)
        return r;
    return write_repo_file(repo_dir, repo::kIndexFile, text);
}

Result<repo::RepoIndex> publish(const PublishOptions &options, const std::vector<PluginFiles> &plugins) {
    auto index = load_index(options.repo_dir);
    if (!index) return index.error();
    for (const auto &files : plugins) {
        auto prepared = prepare_plugin(files, options.ttl);
        if (!prepared) return prepared.error();
        if (auto r = write_repo_file(options.repo_dir, prepared->entry.shared_object.path, prepared->so_bytes); !r)
            return r.error();
        if (auto r = write_repo_file(options.repo_dir, prepared->entry.manifest.path, prepared->manifest_bytes); !r)
            return r.error();
        index->upsert(std::move(prepared->entry));
    }
    index->index_version = options.index_version ? *options.index_version : index->index_version + 1;
    if (!options.repository_name.empty()) index->repository = options.repository_name;
    index->expires =
        std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()) + options.expires_in;
    if (auto r = write_signed_index(options.repo_dir, *index, options.gnupghome, options.signer); !r) return r.error();
    return index;
}

}  // namespace harness::publish
