#include "package_fetch.hpp"

#include "download_limits.hpp"

namespace harness::fetch {

namespace {

// Downloads a file the index describes; the stated size is the hard bound.
Result<std::string> get_pinned(const std::string &repo_url, const repo::FileRef &file, const FetchConfig &config) {
    auto url = join_url(repo_url, file.path);
    if (file.size > config.max_package_bytes)
        return make_error(HARNESS_ERR_TOO_LARGE,
                          "too large: the index gives " + url + " " + std::to_string(file.size) +
                              " bytes, over the limit of " + std::to_string(config.max_package_bytes));
    auto body = http_get(url, limits_for(config, static_cast<std::size_t>(file.size)));
    if (!body) return body.error();
    if (body->size() != file.size)
        return make_error(HARNESS_ERR_AUTH,
                          "hash mismatch: " + url + " has " + std::to_string(body->size()) + " bytes, the index says " +
                              std::to_string(file.size));
    auto digest = repo::sha256_hex(*body);
    if (digest != file.sha256)
        return make_error(HARNESS_ERR_AUTH,
                          "hash mismatch: SHA-256 of " + url + " is " + digest + ", the index says " + file.sha256);
    return body;
}

// The manifest must describe the component that was asked for.
Result<Manifest> check_manifest(const std::string &bytes, const ComponentName &wanted, const std::string &where) {
    auto m = parse_manifest(bytes);
    if (!m) return make_error(HARNESS_ERR_AUTH, "bad manifest at " + where + ": " + m.error().message);
    if (m->package != wanted.package || m->component != wanted.component)
        return make_error(HARNESS_ERR_AUTH,
                          "mix-and-match: the manifest served for " + wanted.to_string() + " describes " + m->package +
                              "/" + m->component + " (" + where + ")");
    return m;
}

}  // namespace

Result<Package> fetch_indexed_package(const std::string &repo_url, const repo::IndexEntry &entry,
                                      const ComponentName &wanted, const FetchConfig &config) {
    if (entry.package != wanted.package || entry.component != wanted.component)
        return make_error(HARNESS_ERR_AUTH,
                          "mix-and-match: the index entry for " + wanted.to_string() + " names " + entry.package + "/" +
                              entry.component);
    if (entry.arch != repo::host_arch())
        return make_error(HARNESS_ERR_ABI_MISMATCH,
                          "wrong architecture: " + wanted.to_string() + " is built for " + entry.arch +
                              ", this host is " + repo::host_arch());
    if (entry.abi_major != HARNESS_PLUGIN_ABI_MAJOR || entry.abi_minor > HARNESS_PLUGIN_ABI_MINOR)
        return make_error(HARNESS_ERR_ABI_MISMATCH,
                          "ABI mismatch: " + wanted.to_string() + " needs plugin ABI " +
                              std::to_string(entry.abi_major) + "." + std::to_string(entry.abi_minor) +
                              ", this daemon has " + std::to_string(HARNESS_PLUGIN_ABI_MAJOR) + "." +
                              std::to_string(HARNESS_PLUGIN_ABI_MINOR));

    // The manifest first: it is small, and a mix-and-match is refused before
    // the large download.
    auto manifest_bytes = get_pinned(repo_url, entry.manifest, config);
    if (!manifest_bytes) return manifest_bytes.error();
    auto manifest = check_manifest(*manifest_bytes, wanted, join_url(repo_url, entry.manifest.path));
    if (!manifest) return manifest.error();
    if (manifest->version != entry.version || manifest->abi_major != entry.abi_major ||
        manifest->abi_minor != entry.abi_minor)
        return make_error(HARNESS_ERR_AUTH,
                          "mix-and-match: the manifest of " + wanted.to_string() + " is version " + manifest->version +
                              ", the index lists " + entry.version);

    auto so_bytes = get_pinned(repo_url, entry.shared_object, config);
    if (!so_bytes) return so_bytes.error();
    if (auto arch = repo::elf_arch(*so_bytes); arch != entry.arch)
        return make_error(HARNESS_ERR_ABI_MISMATCH,
                          "wrong architecture: " + entry.shared_object.path + " is " +
                              (arch.empty() ? std::string("not ELF") : arch) + ", the index says " + entry.arch);
    return Package{std::move(*so_bytes), std::move(*manifest_bytes), std::chrono::seconds(entry.cache_ttl_seconds),
                   entry.version};
}

Result<Package> fetch_plain_package(const std::string &repo_url, const ComponentName &wanted,
                                    const FetchConfig &config) {
    std::string base = "lib/" + wanted.package + "/" + wanted.component;
    auto manifest_url = join_url(repo_url, base + ".json");
    auto manifest_bytes = http_get(manifest_url, limits_for(config, config.max_index_bytes));
    if (!manifest_bytes) return manifest_bytes.error();
    auto manifest = check_manifest(*manifest_bytes, wanted, manifest_url);
    if (!manifest) return manifest.error();
    auto so_bytes = http_get(join_url(repo_url, base + ".so"), limits_for(config, config.max_package_bytes));
    if (!so_bytes) return so_bytes.error();
    if (auto arch = repo::elf_arch(*so_bytes); arch != repo::host_arch())
        return make_error(HARNESS_ERR_ABI_MISMATCH,
                          "wrong architecture: " + base + ".so is " + (arch.empty() ? std::string("not ELF") : arch));
    return Package{std::move(*so_bytes), std::move(*manifest_bytes), manifest->cache_ttl, manifest->version};
}

}  // namespace harness::fetch
