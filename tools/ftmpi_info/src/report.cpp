// ftmpi_info's output (report.hpp).
#include "report.hpp"

#include <ostream>

namespace ftmpi::info {

namespace {

using settings::Setting;

std::string default_text(const Setting &s) {
    if (s.fallback == nullptr) return "(unset)";
    if (*s.fallback == '\0') return "(empty)";
    return s.fallback;
}

std::string type_text(const Setting &s) {
    std::string text = settings::type_name(s.type);
    if (s.type == settings::Type::duration) text += std::string(" (") + s.unit + ")";
    return text;
}

}  // namespace

int print_text(std::ostream &out, const settings::Values &values) {
    int invalid = 0;
    for (const Setting &s : settings::table()) {
        out << s.env << "  (" << s.name << ", " << settings::origin_name(s.origin) << ")\n";
        out << "    " << s.help << "\n";
        out << "    type:    " << type_text(s) << ": " << settings::allowed(s) << "\n";
        out << "    default: " << default_text(s) << "\n";
        out << "    current: ";
        if (!values.is_set(s.id)) {
            out << "(default)\n";
        } else if (values.valid(s.id)) {
            out << values.given(s.id) << "\n";
        } else {
            ++invalid;
            out << values.given(s.id) << "  INVALID: MPI_Init refuses it\n";
        }
    }
    for (const settings::Family &f : settings::families()) {
        out << f.pattern << "\n    " << f.help << "\n";
        for (const auto &[name, value] : values.family(f.prefix))
            out << "    current: " << name << "=" << value << "\n";
    }
    // FTMPI_* variables that are neither a setting nor of a family: a typo?
    bool header = false;
    for (const auto &[name, value] : values.family("FTMPI_")) {
        bool in_family = false;
        for (const settings::Family &f : settings::families()) in_family = in_family || name.starts_with(f.prefix);
        if (in_family) continue;
        if (!header) out << "FTMPI_* variables that are not settings of libftmpi (ignored):\n";
        header = true;
        out << "    " << name << "=" << value << "\n";
    }
    return invalid;
}

void print_markdown(std::ostream &out) {
    out << "| variable | type | default | allowed | set by | what it does |\n";
    out << "|---|---|---|---|---|---|\n";
    for (const Setting &s : settings::table())
        out << "| `" << s.env << "` | " << type_text(s) << " | " << default_text(s) << " | " << settings::allowed(s)
            << " | " << (s.origin == settings::Origin::launcher ? "ftmpirun" : "user") << " | " << s.help << " |\n";
    for (const settings::Family &f : settings::families())
        out << "| `" << f.pattern << "` | string | (unset) | an algorithm of that collective | user | " << f.help
            << " |\n";
}

}  // namespace ftmpi::info
