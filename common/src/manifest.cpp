#include <harness/common/json_integer.hpp>
#include <harness/common/loader.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace harness {

namespace {

using json = nlohmann::json;

Error manifest_error(const std::string &why) {
    return make_error(HARNESS_ERR_LOAD_FAILED, "manifest: " + why);
}

template <class E>
bool parse_enum(const json &j, const char *key, std::initializer_list<std::pair<const char *, E>> names, E &out) {
    if (!j.contains(key)) return true;  // keep the default
    if (!j[key].is_string()) return false;
    auto text = j[key].get<std::string>();
    for (const auto &[name, value] : names)
        if (text == name) {
            out = value;
            return true;
        }
    return false;
}

}  // namespace

const char *convention_name(harness_convention convention) {
    switch (convention) {
    case HARNESS_CALL_RAW: return "raw";
    case HARNESS_CALL_PACKED: return "packed";
    case HARNESS_CALL_AUTO: return "auto";
    }
    return "unknown";
}

const char *mode_name(harness_mode mode) {
    switch (mode) {
    case HARNESS_MODE_DEFAULT: return "default";
    case HARNESS_MODE_INLINE: return "inline";
    case HARNESS_MODE_THREAD: return "thread";
    case HARNESS_MODE_FORK: return "fork";
    case HARNESS_MODE_SERVICE: return "service";
    }
    return "unknown";
}

Result<Manifest> parse_manifest(std::string_view json_text) {
    json j = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return manifest_error("not a JSON object");
    Manifest m;
    try {
        if (!j.contains("package") || !j.contains("component") || !j.contains("version"))
            return manifest_error("package, component and version are required");
        m.package = j.at("package").get<std::string>();
        m.component = j.at("component").get<std::string>();
        m.version = j.at("version").get<std::string>();
        if (!is_valid_name_part(m.package) || !is_valid_name_part(m.component))
            return manifest_error("invalid package or component name");
        auto abi_major = json_integer_field(j, "abi_major", 0);
        auto abi_minor = json_integer_field(j, "abi_minor", 0);
        if (!abi_major || !abi_minor) return manifest_error("abi_major and abi_minor must be integers");
        m.abi_major = *abi_major;
        m.abi_minor = *abi_minor;
        if (!parse_enum<harness_level>(
                j, "level", {{"daemon", HARNESS_LEVEL_DAEMON}, {"application", HARNESS_LEVEL_APPLICATION}}, m.level))
            return manifest_error("level must be \"daemon\" or \"application\"");
        if (!parse_enum<harness_instance_policy>(
                j, "instance_policy", {{"per_daemon", HARNESS_PER_DAEMON}, {"one_per_vm", HARNESS_ONE_PER_VM}},
                m.instance_policy))
            return manifest_error("instance_policy must be \"per_daemon\" or \"one_per_vm\"");
        for (const auto &d : j.value("dependencies", json::array())) {
            auto dep = d.get<std::string>();
            if (!parse_component_name(dep)) return manifest_error("bad dependency \"" + dep + "\"");
            m.dependencies.push_back(dep);
        }
        auto ttl = json_integer_field(j, "cache_ttl_seconds", std::int64_t{3600});
        if (!ttl) return manifest_error("cache_ttl_seconds must be an integer");
        if (*ttl < 0) return manifest_error("cache_ttl_seconds must not be negative");
        m.cache_ttl = std::chrono::seconds(*ttl);
        for (const auto &f : j.value("functions", json::array())) {
            Manifest::Function fn;
            fn.name = f.at("name").get<std::string>();
            if (!parse_enum<harness_convention>(
                    f, "convention",
                    {{"raw", HARNESS_CALL_RAW}, {"packed", HARNESS_CALL_PACKED}, {"auto", HARNESS_CALL_AUTO}},
                    fn.convention))
                return manifest_error("function " + fn.name + ": bad convention");
            if (!parse_enum<harness_mode>(f, "default_mode",
                                          {{"inline", HARNESS_MODE_INLINE},
                                           {"thread", HARNESS_MODE_THREAD},
                                           {"fork", HARNESS_MODE_FORK},
                                           {"service", HARNESS_MODE_SERVICE}},
                                          fn.default_mode))
                return manifest_error("function " + fn.name + ": bad default_mode");
            fn.signature = f.value("signature", std::string());
            m.functions.push_back(std::move(fn));
        }
        for (const auto &i : j.value("interfaces", json::array())) {
            Manifest::Interface in;
            in.name = i.at("name").get<std::string>();
            if (in.name.empty()) return manifest_error("an interface has an empty name");
            auto version = json_integer<std::uint32_t>(i.at("version"));
            if (!version) return manifest_error("interface " + in.name + ": version must be an integer 0 … 4294967295");
            in.version = *version;
            m.interfaces.push_back(std::move(in));
        }
    } catch (const json::exception &e) {
        return manifest_error(std::string("wrong field type: ") + e.what());
    }
    return m;
}

Result<Manifest> read_manifest(const std::filesystem::path &file) {
    std::ifstream in(file);
    if (!in) return manifest_error("cannot read " + file.string());
    std::ostringstream text;
    text << in.rdbuf();
    auto m = parse_manifest(text.str());
    if (!m) return make_error(m.error().status, m.error().message + " (" + file.string() + ")");
    return m;
}

}  // namespace harness
