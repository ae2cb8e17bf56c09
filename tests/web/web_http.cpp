// vm/web against a real hcored: the endpoints and their JSON (the shapes of
// hostinfo --json and cominfo --json), the live feed, who is let in on a
// loopback and on a non-loopback bind (the token of `hconsole web-token`),
// and bad input — each answered with a status, and the daemon still serving
// afterwards.
#include "web_support.hpp"

#include <harness/vmview/web_token.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace harness;
using namespace harness::web_test;
using nlohmann::json;

namespace {

json body_json(const HttpReply &r) {
    auto j = json::parse(r.body, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), r.raw);
    return j;
}

// Reads the event stream until a "state" event arrives; its data.
json first_state_event(std::uint16_t port, std::chrono::milliseconds timeout) {
    const int fd = connect_to(port);
    REQUIRE(fd >= 0);
    const std::string req = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";
    REQUIRE(::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(req.size()));
    std::string got;
    json state;
    test::wait_until(
        [&] {
            got += read_until_closed(fd, 100ms);
            const auto at = got.find("event: state\ndata: ");
            const auto end = at == std::string::npos ? at : got.find("\n\n", at);
            if (end == std::string::npos) return false;
            state = json::parse(got.substr(at + 19, end - at - 19), nullptr, false);
            return true;
        },
        timeout);
    ::close(fd);
    CAPTURE(got);
    REQUIRE(got.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
    CHECK(got.find("Content-Type: text/event-stream") != std::string::npos);
    return state;
}

}  // namespace

TEST_CASE("loopback: the page, the API in hostinfo's and cominfo's shapes, and the live feed, without a token") {
    auto d = start_daemon({"HARNESS_WEB_PORT=0"});
    const std::string url = web_url(*d);
    CHECK(url.rfind("http://127.0.0.1:", 0) == 0);
    const auto port = web_port(*d);

    auto page = get(port, "/");
    REQUIRE(page.status == 200);
    CHECK(page.headers["content-type"] == "text/html; charset=utf-8");
    CHECK(page.body.find("new EventSource('events')") != std::string::npos);
    CHECK(page.body.find("'data-state'") != std::string::npos);
    CHECK(page.headers.count("content-security-policy") == 1);
    auto head = send_raw(port, "HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    CHECK(head.status == 200);
    CHECK(head.body.empty());

    // /api/vm is hostinfo --json: the same keys, this daemon as member and DRD
    // voter (the DRD names its voter by raft id until it has taken the member id).
    json vm;
    CHECK(test::wait_until(
        [&] {
            vm = body_json(get(port, "/api/vm"));
            return vm.contains("drd") && vm["drd"]["voters"].size() == 1 && vm["drd"]["voters"][0] == d->id();
        },
        10s));
    for (const char *k : {"via", "members", "services", "plugins", "drd", "notes"}) CHECK_MESSAGE(vm.contains(k), k);
    CHECK(vm["via"] == d->id());
    REQUIRE(vm["members"].size() == 1);
    CHECK(vm["members"][0]["state"] == "alive");
    CHECK(vm["drd"]["voters"][0] == d->id());
    bool web_listed = false;
    for (const auto &p : vm["plugins"][d->id()]) web_listed |= p.get<std::string>().rfind("vm/web ", 0) == 0;
    CHECK(web_listed);

    // /api/jobs before any job: empty; /api/jobs/<J> of no job: 404 with the reason.
    auto jobs = body_json(get(port, "/api/jobs"));
    CHECK(jobs["jobs"] == json::array());
    CHECK(jobs["total"] == 0);
    auto none = get(port, "/api/jobs/12345");
    CHECK(none.status == 404);
    CHECK(body_json(none)["error"].get<std::string>().find("no records of job 12345") != std::string::npos);
    CHECK(get(port, "/api/jobs/%2Fx").status == 400);

    // The feed sends the whole state at once, hostinfo's document included.
    auto state = first_state_event(port, 10s);
    CHECK(state["vm"]["via"] == d->id());
    CHECK(state["jobs"]["jobs"] == json::array());
    CHECK(state["time_ms"].is_number_integer());

    // Unknown paths: 404, naming what exists.
    auto missing = get(port, "/no/such/page");
    CHECK(missing.status == 404);
    CHECK(missing.body.find("/api/vm") != std::string::npos);

    // A Host that is not loopback (DNS rebinding): refused on a loopback bind.
    auto rebound = send_raw(port, "GET /api/vm HTTP/1.1\r\nHost: evil.example:80\r\n\r\n");
    CHECK(rebound.status == 403);
    CHECK(send_raw(port, "GET /api/vm HTTP/1.1\r\nHost: localhost:1\r\n\r\n").status == 200);
}

TEST_CASE("bad input is answered with a status and the daemon keeps serving") {
    auto d = start_daemon({"HARNESS_WEB_PORT=0"});
    const auto port = web_port(*d);

    // A client that sends half a request and stops: 408 after the head timeout.
    const int slow = connect_to(port);
    REQUIRE(slow >= 0);
    REQUIRE(::send(slow, "GET / HTTP/1.1\r\nHo", 19, MSG_NOSIGNAL) == 19);
    const auto slow_since = std::chrono::steady_clock::now();

    struct Case {
        const char *what;
        std::string request;
        int status;
    };
    const std::vector<Case> cases{
        {"garbage", "\x01\x02 hello\r\n\r\n", 400},
        {"no version", "GET /\r\n\r\n", 400},
        {"no Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", 400},
        {"a header without a colon", "GET / HTTP/1.1\r\nHost: localhost\r\nnonsense\r\n\r\n", 400},
        {"a bad escape", "GET /%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", 400},
        {"two Host headers", "GET / HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n", 400},
        {"POST", "POST /api/vm HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", 405},
        {"a body", "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello", 413},
        {"chunked", "GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 413},
        {"HTTP/2.0", "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 505},
        {"huge headers", "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + std::string(64 * 1024, 'a') + "\r\n\r\n",
         431},
        {"no blank line, too long", "GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + std::string(64 * 1024, 'b'), 431},
    };
    for (const auto &c : cases) {
        auto r = send_raw(port, c.request);
        CAPTURE(c.what);
        CAPTURE(r.raw.substr(0, 300));
        CHECK(r.status == c.status);
        CHECK(r.body.find(std::to_string(c.status)) == 0);  // a body a person can read: "400 Bad Request: …"
    }

    auto slow_reply = parse_reply(read_until_closed(slow, 10s));
    ::close(slow);
    CHECK(slow_reply.status == 408);
    CHECK(std::chrono::steady_clock::now() - slow_since < 8s);

    // More connections than the server holds: the extra one gets 503 at once.
    std::vector<int> idle;
    for (int i = 0; i < 32; ++i) idle.push_back(connect_to(port));
    // The server has accepted all 32 once a 33rd is refused.
    HttpReply busy;
    CHECK(test::wait_until(
        [&] {
            busy = get(port, "/api/vm", "", 2s);
            return busy.status == 503;
        },
        5s));
    for (int fd : idle) ::close(fd);

    // Afterwards the view, and the daemon, still answer.
    CHECK(test::wait_until([&] { return get(port, "/api/vm").status == 200; }, 10s));
    CHECK(d->running());
    auto vm = it::connect(*d);
    CHECK(vm.members().ok());
}

TEST_CASE("a non-loopback bind needs the token of hconsole web-token") {
    auto d = start_daemon({"HARNESS_WEB_PORT=0", "HARNESS_WEB_BIND=0.0.0.0"});
    CHECK(web_url(*d).rfind("http://0.0.0.0:", 0) == 0);
    const auto port = web_port(*d);

    // The token: hconsole prints what the library derives from the key.
    auto key = load_key(d->key_file());
    REQUIRE(key.ok());
    const std::string token = vmview::web_token(*key);
    CHECK(token.size() == 64);
    const auto hconsole = it::hconsole_path();
    REQUIRE(!hconsole.empty());
    auto printed = it::run_program({hconsole.string(), "--key", d->key_file().string(), "web-token"}, 10s);
    CHECK(printed.exited_ok());
    CHECK(printed.out == token + "\n");

    // Without a token, or with a wrong one: 401 on every path, saying how to get in.
    for (const char *path : {"/", "/api/vm", "/api/jobs", "/events", "/nope"}) {
        auto r = get(port, path);
        CAPTURE(path);
        CHECK(r.status == 401);
        CHECK(r.headers.count("www-authenticate") == 1);
        CHECK(r.body.find("hconsole web-token") != std::string::npos);
    }
    const std::string wrong(64, '0');
    CHECK(get(port, "/api/vm?token=" + wrong).status == 401);
    CHECK(get(port, "/api/vm", "Authorization: Bearer " + wrong + "\r\n").status == 401);
    CHECK(get(port, "/api/vm", "Cookie: harness_web=" + wrong + "\r\n").status == 401);
    CHECK(get(port, "/api/vm?token=" + token.substr(0, 63)).status == 401);

    // The right token, in each of its three places.
    auto in_url = get(port, "/api/vm?token=" + token);
    CHECK(in_url.status == 200);
    CHECK(in_url.headers["set-cookie"].find("harness_web=" + token) == 0);
    CHECK(in_url.headers["set-cookie"].find("HttpOnly") != std::string::npos);
    CHECK(body_json(in_url)["via"] == d->id());
    CHECK(get(port, "/api/jobs", "Authorization: Bearer " + token + "\r\n").status == 200);
    CHECK(get(port, "/", "Cookie: other=1; harness_web=" + token + "\r\n").status == 200);
    // Opening /?token=… sets the cookie and sends the browser to / (the token leaves the address bar).
    auto opened = get(port, "/?token=" + token);
    CHECK(opened.status == 303);
    CHECK(opened.headers["location"] == "/");
    CHECK(opened.headers["set-cookie"].find("harness_web=" + token) == 0);
    // Any Host is fine with the token (it is not a loopback bind).
    CHECK(send_raw(port, "GET /api/vm HTTP/1.1\r\nHost: node7.example:1\r\nAuthorization: Bearer " + token + "\r\n\r\n")
              .status == 200);
}

TEST_CASE("off by default; HARNESS_WEB_AUTH=token asks for it on loopback too; a bad setting is refused") {
    auto off = start_daemon({});
    CHECK(web_url(*off).empty());
    CHECK(off->stderr_text().find("vm/web: off") != std::string::npos);

    auto strict = start_daemon({"HARNESS_WEB_PORT=0", "HARNESS_WEB_AUTH=token"});
    const auto port = web_port(*strict);
    CHECK(get(port, "/api/vm").status == 401);
    auto key = load_key(strict->key_file());
    REQUIRE(key.ok());
    CHECK(get(port, "/api/vm?token=" + vmview::web_token(*key)).status == 200);

    // A port that is not one: the plugin does not load, the daemon runs without it and says why.
    auto bad = start_daemon({"HARNESS_WEB_PORT=http"});
    CHECK(bad->running());
    CHECK(bad->stderr_text().find("HARNESS_WEB_PORT=http is not a TCP port") != std::string::npos);
}
