#include "ft_options.hpp"

#include <array>
#include <utility>

namespace harness::ftmpirun {

namespace {

constexpr std::array<std::pair<CommMode, const char *>, 6> kCommModes{{
    {CommMode::ulfm, "ulfm"},
    {CommMode::abort, "abort"},
    {CommMode::blank, "blank"},
    {CommMode::shrink, "shrink"},
    {CommMode::rebuild, "rebuild"},
    {CommMode::rebuild_append, "rebuild-append"},
}};
constexpr std::array<std::pair<MsgMode, const char *>, 2> kMsgModes{{{MsgMode::cont, "cont"}, {MsgMode::nop, "nop"}}};

template <class Mode, std::size_t N>
Result<Mode> parse(const std::array<std::pair<Mode, const char *>, N> &table, const std::string &option,
                   const std::string &text) {
    std::string accepted;
    for (const auto &[mode, name] : table) {
        if (text == name) return mode;
        accepted += accepted.empty() ? "" : ", ";
        accepted += name;
    }
    return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                      option + " " + (text.empty() ? "''" : text) + ": not a mode (one of " + accepted + ")");
}

template <class Mode, std::size_t N>
std::string name_of(const std::array<std::pair<Mode, const char *>, N> &table, Mode mode) {
    for (const auto &[m, name] : table)
        if (m == mode) return name;
    return "?";
}

}  // namespace

std::string to_string(CommMode mode) {
    return name_of(kCommModes, mode);
}
std::string to_string(MsgMode mode) {
    return name_of(kMsgModes, mode);
}

Result<CommMode> parse_comm_mode(const std::string &text) {
    return parse(kCommModes, "--comm-mode", text);
}
Result<MsgMode> parse_msg_mode(const std::string &text) {
    return parse(kMsgModes, "--msg-mode", text);
}

std::vector<std::string> ft_environment(const FtOptions &options) {
    std::vector<std::string> env{"FTMPI_COMM_MODE=" + to_string(options.comm_mode),
                                 "FTMPI_MSG_MODE=" + to_string(options.msg_mode)};
    if (options.strict_collectives) env.push_back("FTMPI_COLL_STRICT=1");
    if (options.ordered_notifier) env.push_back("FTMPI_NOTIFIER=ordered");
    return env;
}

std::vector<std::string> replacement_environment(int incarnation, int round) {
    return {"FTMPI_RESTARTED=1", "FTMPI_INCARNATION=" + std::to_string(incarnation),
            "FTMPI_ROUND=" + std::to_string(round)};
}

}  // namespace harness::ftmpirun
