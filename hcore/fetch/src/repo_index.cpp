// The index's JSON form: parsing with full validation, and serializing.
#include <harness/fetch/repo_index.hpp>

#include <harness/common/json_integer.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace harness::repo {

namespace {

using json = nlohmann::json;

Error index_error(const std::string &why) {
    return make_error(HARNESS_ERR_PROTOCOL, "malformed index: " + why);
}

bool is_hex64(std::string_view s) {
    return s.size() == 64 &&
        std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

json file_to_json(const FileRef &f) {
    return {{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}};
}

Result<FileRef> file_from_json(const json &j, const std::string &what) {
    if (!j.is_object()) return index_error(what + " is not an object");
    FileRef f;
    f.path = j.at("path").get<std::string>();
    auto size = json_integer<std::uint64_t>(j.at("size"));
    if (!size) return index_error(what + ": size must be a non-negative integer");
    f.size = *size;
    f.sha256 = j.at("sha256").get<std::string>();
    if (!is_safe_relative_path(f.path)) return index_error(what + ": unsafe path \"" + f.path + "\"");
    if (!is_hex64(f.sha256)) return index_error(what + ": sha256 must be 64 lower-case hex digits");
    return f;
}

json function_to_json(const Manifest::Function &f) {
    json j = {
        {"name", f.name}, {"convention", convention_name(f.convention)}, {"default_mode", mode_name(f.default_mode)}};
    if (!f.signature.empty()) j["signature"] = f.signature;
    return j;
}

Result<Manifest::Function> function_from_json(const json &j) {
    Manifest::Function f;
    f.name = j.at("name").get<std::string>();
    auto conv = j.value("convention", std::string("packed"));
    if (conv == "raw")
        f.convention = HARNESS_CALL_RAW;
    else if (conv == "packed")
        f.convention = HARNESS_CALL_PACKED;
    else if (conv == "auto")
        f.convention = HARNESS_CALL_AUTO;
    else
        return index_error("function " + f.name + ": bad convention \"" + conv + "\"");
    auto mode = j.value("default_mode", std::string("inline"));
    if (mode == "inline")
        f.default_mode = HARNESS_MODE_INLINE;
    else if (mode == "thread")
        f.default_mode = HARNESS_MODE_THREAD;
    else if (mode == "fork")
        f.default_mode = HARNESS_MODE_FORK;
    else if (mode == "service")
        f.default_mode = HARNESS_MODE_SERVICE;
    else
        return index_error("function " + f.name + ": bad default_mode \"" + mode + "\"");
    f.signature = j.value("signature", std::string());
    return f;
}

json entry_to_json(const IndexEntry &e) {
    json fns = json::array();
    for (const auto &f : e.functions) fns.push_back(function_to_json(f));
    return {{"package", e.package},
            {"component", e.component},
            {"version", e.version},
            {"abi_major", e.abi_major},
            {"abi_minor", e.abi_minor},
            {"arch", e.arch},
            {"level", e.level},
            {"cache_ttl_seconds", e.cache_ttl_seconds},
            {"functions", fns},
            {"files", {{"shared_object", file_to_json(e.shared_object)}, {"manifest", file_to_json(e.manifest)}}}};
}

Result<IndexEntry> entry_from_json(const json &j) {
    if (!j.is_object()) return index_error("component entry is not an object");
    IndexEntry e;
    e.package = j.at("package").get<std::string>();
    e.component = j.at("component").get<std::string>();
    std::string who = e.package + "/" + e.component;
    if (!is_valid_name_part(e.package) || !is_valid_name_part(e.component))
        return index_error("invalid component name \"" + who + "\"");
    e.version = j.at("version").get<std::string>();
    auto abi_major = json_integer<int>(j.at("abi_major"));
    auto abi_minor = json_integer<int>(j.at("abi_minor"));
    if (!abi_major || !abi_minor) return index_error(who + ": abi_major and abi_minor must be integers");
    e.abi_major = *abi_major;
    e.abi_minor = *abi_minor;
    e.arch = j.at("arch").get<std::string>();
    e.level = j.value("level", std::string("daemon"));
    auto ttl = json_integer_field(j, "cache_ttl_seconds", std::int64_t{3600});
    if (!ttl) return index_error(who + ": cache_ttl_seconds must be an integer");
    e.cache_ttl_seconds = *ttl;
    if (e.cache_ttl_seconds < 0) return index_error(who + ": negative cache_ttl_seconds");
    for (const auto &f : j.value("functions", json::array())) {
        auto fn = function_from_json(f);
        if (!fn) return fn.error();
        e.functions.push_back(std::move(*fn));
    }
    const json &files = j.at("files");
    auto so = file_from_json(files.at("shared_object"), who + " shared_object");
    if (!so) return so.error();
    auto man = file_from_json(files.at("manifest"), who + " manifest");
    if (!man) return man.error();
    e.shared_object = std::move(*so);
    e.manifest = std::move(*man);
    return e;
}

}  // namespace

const IndexEntry *RepoIndex::find(const ComponentName &name) const {
    for (const auto &e : components)
        if (e.package == name.package && e.component == name.component) return &e;
    return nullptr;
}

void RepoIndex::upsert(IndexEntry entry) {
    for (auto &e : components)
        if (e.package == entry.package && e.component == entry.component) {
            e = std::move(entry);
            return;
        }
    components.push_back(std::move(entry));
    std::sort(components.begin(), components.end(),
              [](const IndexEntry &a, const IndexEntry &b) { return a.name() < b.name(); });
}

Result<RepoIndex> parse_index(std::string_view json_text) {
    json j = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return index_error("not a JSON object");
    RepoIndex index;
    try {
        auto format = json_integer<int>(j.at("format"));
        if (!format) return index_error("format must be an integer");
        index.format = *format;
        if (index.format != kIndexFormat) return index_error("unsupported format " + std::to_string(index.format));
        index.repository = j.value("repository", std::string());
        auto index_version = json_integer<std::int64_t>(j.at("index_version"));
        if (!index_version) return index_error("index_version must be an integer");
        index.index_version = *index_version;
        if (index.index_version < 1) return index_error("index_version must be positive");
        auto expires = parse_utc(j.at("expires").get<std::string>());
        if (!expires) return index_error("expires is not an RFC 3339 UTC time");
        index.expires = *expires;
        for (const auto &c : j.at("components")) {
            auto e = entry_from_json(c);
            if (!e) return e.error();
            if (index.find(e->name())) return index_error("duplicate entry " + e->name().to_string());
            index.components.push_back(std::move(*e));
        }
    } catch (const json::exception &e) {
        return index_error(std::string("missing or mistyped field: ") + e.what());
    }
    return index;
}

std::string serialize_index(const RepoIndex &index) {
    json comps = json::array();
    for (const auto &e : index.components) comps.push_back(entry_to_json(e));
    json j = {{"format", index.format},
              {"repository", index.repository},
              {"index_version", index.index_version},
              {"expires", format_utc(index.expires)},
              {"components", comps}};
    return j.dump(2) + "\n";
}

Result<IndexEntry> make_entry(const Manifest &manifest, std::string_view so_bytes, std::string_view manifest_bytes) {
    IndexEntry e;
    e.package = manifest.package;
    e.component = manifest.component;
    e.version = manifest.version;
    if (!is_valid_name_part(e.package) || !is_valid_name_part(e.component) || !is_valid_name_part(e.version))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "manifest names or version unusable in a path");
    e.abi_major = manifest.abi_major;
    e.abi_minor = manifest.abi_minor;
    e.arch = elf_arch(so_bytes);
    if (e.arch.empty())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, e.package + "/" + e.component + ": not an ELF shared object");
    e.level = manifest.level == HARNESS_LEVEL_APPLICATION ? "application" : "daemon";
    e.cache_ttl_seconds = manifest.cache_ttl.count();
    e.functions = manifest.functions;
    std::string base = "packages/" + e.package + "/" + e.component + "-" + e.version;
    e.shared_object = {base + ".so", so_bytes.size(), sha256_hex(so_bytes)};
    e.manifest = {base + ".json", manifest_bytes.size(), sha256_hex(manifest_bytes)};
    return e;
}

bool is_safe_relative_path(std::string_view path) {
    if (path.empty() || path.size() > 512 || path.front() == '/') return false;
    std::size_t start = 0;
    while (start <= path.size()) {
        auto end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        if (!is_valid_name_part(path.substr(start, end - start))) return false;
        start = end + 1;
    }
    return true;
}

}  // namespace harness::repo
