// hconsole — the HARNESS console: VM members, plugin loads and calls, halt.
//
//   hconsole members | add HOST:PORT | load PKG[/COMP] [--all|--on ID…] | loaded
//            | call PKG/COMP FUNC [--all|--on ID…] [--udp] [--mode M] ARG… | halt | web-token
//
// With no subcommand it reads the same commands line by line from stdin.
#include "session.hpp"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <iostream>
#include <sstream>

namespace {

using harness::hconsole::CallRequest;
using harness::hconsole::Session;

// What one command line asked for.
struct Command {
    CallRequest call;
    std::string add_host;
    std::string load_component;
    std::vector<std::string> load_on;
    bool load_all = false;
    bool json = false;
};

const char *kArgHelp = "arguments: i64:5 i32:5 u64:5 f64:2.5 bool:true str:text bytes:hex; bare 5 is i64, "
                       "2.5 is f64, anything else str (bare literals adapt to an AUTO signature)";

void add_commands(CLI::App &app, Command &c) {
    app.require_subcommand(0, 1);
    app.add_subcommand("members", "list the daemons of the VM and their state");
    auto *add = app.add_subcommand("add", "add the host running hcored at HOST:PORT to the VM");
    add->add_option("address", c.add_host, "HOST:PORT of the new daemon")->required();
    auto *load = app.add_subcommand("load", "load a plugin component (on the local daemon unless told)");
    load->add_option("component", c.load_component,
                     "PKG/COMP, or PKG alone for every component of it under <root>/lib and <root>/cache/lib")
        ->required();
    auto *load_where = load->add_option_group("where");
    load_where->add_option("--on", c.load_on, "member ids to load it on")->expected(1, -1);
    load_where->add_flag("--all", c.load_all, "load it on every alive member");
    load_where->require_option(0, 1);
    app.add_subcommand("loaded", "what each daemon has loaded");
    auto *call = app.add_subcommand("call", "call a plugin function")->footer(kArgHelp);
    call->add_option("component", c.call.component, "PKG/COMP")->required();
    call->add_option("function", c.call.function, "function name")->required();
    call->add_option("args", c.call.arguments, "typed argument literals");
    auto *call_where = call->add_option_group("where");
    call_where->add_flag("--all", c.call.all, "call it on every daemon that has it loaded");
    // One id per --on (repeat it, or separate ids by commas), so that the
    // argument literals after it are never taken for ids.
    call_where->add_option("--on", c.call.on, "member id to call it on (repeatable, or ID,ID…)")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->delimiter(',');
    call_where->require_option(0, 1);
    call->add_flag("--udp", c.call.udp, "send the request over UDP (retried until the timeout)");
    call->add_option("--mode", c.call.mode, "where the daemon runs it: inline, thread, fork, service")
        ->check(CLI::IsMember({"inline", "thread", "fork", "service", "default"}));
    app.add_subcommand("halt", "stop every daemon of the VM");
    app.add_subcommand("web-token", "print the web view's access token (derived from the VM key)");
}

int run(CLI::App &app, Command &c, Session &session, bool json) {
    session.settings().json = json || c.json;
    if (app.got_subcommand("members")) return session.members();
    if (app.got_subcommand("add")) return session.add(c.add_host);
    if (app.got_subcommand("load")) return session.load(c.load_component, c.load_on, c.load_all);
    if (app.got_subcommand("loaded")) return session.loaded();
    if (app.got_subcommand("call")) return session.call(c.call);
    if (app.got_subcommand("halt")) return session.halt();
    if (app.got_subcommand("web-token")) return session.web_token();
    return 0;
}

// Splits a line into words; '…' and "…" quote, backslash escapes.
std::vector<std::string> split_words(const std::string &line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        char ch = line[i];
        if (quote) {
            if (ch == quote)
                quote = 0;
            else if (ch == '\\' && quote == '"' && i + 1 < line.size())
                word += line[++i];
            else
                word += ch;
        } else if (ch == '\'' || ch == '"') {
            quote = ch;
            in_word = true;
        } else if (ch == '\\' && i + 1 < line.size()) {
            word += line[++i];
            in_word = true;
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += ch;
            in_word = true;
        }
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

bool is_command(CLI::App &app, const std::string &word) {
    for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
        if (sub->get_name() == word) return true;
    return false;
}

int interactive(Session &session, bool json) {
    bool tty = ::isatty(STDIN_FILENO);
    int status = 0;
    std::string line;
    for (;;) {
        if (tty) std::cout << "hconsole> " << std::flush;
        if (!std::getline(std::cin, line)) break;
        auto words = split_words(line);
        if (words.empty() || words[0].starts_with("#")) continue;
        if (words[0] == "quit" || words[0] == "exit") break;
        CLI::App app{"Commands (the same as on the command line):"};
        app.name("");
        app.fallthrough();
        Command c;
        add_commands(app, c);
        app.add_flag("--json", c.json, "machine-readable output");
        if (words[0] == "help") words[0] = "--help";
        if (!words[0].starts_with("-") && !is_command(app, words[0])) {
            std::cerr << "hconsole: unknown command \"" << words[0] << "\" (try help)" << std::endl;
            status = 1;
            continue;
        }
        std::vector<std::string> reversed(words.rbegin(), words.rend());
        try {
            app.parse(reversed);
        } catch (const CLI::CallForHelp &) {
            std::cout << app.help();
            continue;
        } catch (const CLI::ParseError &e) {
            std::cerr << "hconsole: " << e.what() << std::endl;
            status = 1;
            continue;
        }
        if (app.get_subcommands().empty()) {
            std::cerr << "hconsole: unknown command \"" << words[0] << "\" (try help)" << std::endl;
            status = 1;
            continue;
        }
        if (run(app, c, session, json) != 0) status = 1;
    }
    if (tty) std::cout << std::endl;
    return status;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"hconsole — the HARNESS console: VM membership, loading and calling plugins.\n"
                 "With no command, reads commands line by line from stdin (quit or EOF ends)."};
    app.fallthrough();
    std::string root, key, hcore;
    long timeout_ms = 5000;
    bool json = false;
    app.add_option("--root", root, "HARNESS root directory (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", key, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("--hcore", hcore,
                   "daemon to talk to, HOST:PORT (env HARNESS_HCORE, default the local "
                   "daemon's Unix socket <root>/var/hcored.sock)");
    app.add_option("--timeout", timeout_ms, "deadline of each operation, in milliseconds")
        ->check(CLI::Range(1L, 3600L * 1000));
    app.add_flag("--json", json, "print one JSON document on stdout");
    Command c;
    add_commands(app, c);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "hconsole: " << e.what() << " (try --help)" << std::endl;
        return 2;
    }

    harness::hconsole::Settings settings;
    auto connect =
        harness::hlib::ConnectOptions::from_command_line(root, key, hcore, std::chrono::milliseconds(timeout_ms));
    if (!connect) {
        std::cerr << "hconsole: " << connect.error().message << std::endl;
        return 2;
    }
    settings.connect = *connect;
    settings.json = json;
    Session session(settings, std::cout, std::cerr);
    if (app.get_subcommands().empty()) return interactive(session, json);
    return run(app, c, session, json);
}
