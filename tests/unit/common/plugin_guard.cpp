// harness/common/plugin_guard.hpp: the C edge of C++ plugin entries. A body's status
// or Error comes through as it is; an exception becomes the guard's status
// with its message, prefixed by the guard's context.
#include <harness/common/plugin_guard.hpp>

#include <doctest/doctest.h>

#include <new>
#include <stdexcept>
#include <string>

using namespace harness;

namespace {

struct Call {
    harness_buf err{};
    harness_call_ctx ctx{sizeof(harness_call_ctx), nullptr, nullptr, &err};
    ~Call() { harness_buf_free(&err); }
    std::string message() const { return std::string(reinterpret_cast<const char *>(err.data), err.len); }
};

}  // namespace

TEST_CASE("guarded_call passes a body's status or Error through") {
    Call c;
    CHECK(guarded_call(&c.ctx, "ctx", [] { return HARNESS_OK; }) == HARNESS_OK);
    CHECK(guarded_call(&c.ctx, "ctx", [] { return HARNESS_ERR_BUSY; }) == HARNESS_ERR_BUSY);
    CHECK(c.message().empty());
    CHECK(guarded_call(&c.ctx, "ctx", []() -> Result<void> { return {}; }) == HARNESS_OK);
    CHECK(guarded_call(&c.ctx, "ctx", []() -> Result<void> {
              return make_error(HARNESS_ERR_NOT_FOUND, "no such key");
          }) == HARNESS_ERR_NOT_FOUND);
    CHECK(c.message() == "no such key");  // an Error's message says what failed: no prefix
}

TEST_CASE("guarded_call turns every exception into a status and a message") {
    {
        Call c;
        CHECK(guarded_call(&c.ctx, "vm/x", []() -> int { throw std::runtime_error("boom"); }) == HARNESS_ERR_INTERNAL);
        CHECK(c.message() == "vm/x: boom");
    }
    {
        Call c;
        CHECK(guarded_call(
                  &c.ctx, {}, []() -> int { throw std::bad_alloc(); }, HARNESS_ERR_PLUGIN_FAILED) ==
              HARNESS_ERR_PLUGIN_FAILED);
        CHECK(c.message() == "out of memory");
    }
    {
        Call c;
        CHECK(guarded_call(&c.ctx, "f", []() -> Result<void> { throw 7; }) == HARNESS_ERR_INTERNAL);
        CHECK(c.message() == "f: unknown exception");
    }
    // A context without an error buffer, or none at all, only loses the text.
    CHECK(guarded_call(nullptr, "f", []() -> int { throw 7; }) == HARNESS_ERR_INTERNAL);
}

TEST_CASE("guarded_init writes its message into the host's buffer, truncated to fit") {
    char err[16] = "";
    CHECK(guarded_init(err, sizeof err, "vm/x", [] { return HARNESS_OK; }) == HARNESS_OK);
    CHECK(std::string(err).empty());
    CHECK(guarded_init(err, sizeof err, "vm/x",
                       []() -> Result<void> { return make_error(HARNESS_ERR_AUTH, "no key"); }) == HARNESS_ERR_AUTH);
    CHECK(std::string(err) == "no key");
    CHECK(guarded_init(
              err, sizeof err, "vm/x", []() -> int { throw std::runtime_error("a long reason"); },
              HARNESS_ERR_LOAD_FAILED) == HARNESS_ERR_LOAD_FAILED);
    CHECK(std::string(err) == "vm/x: a long re");
    CHECK(guarded_init(nullptr, 0, "vm/x", []() -> int { throw 1; }) == HARNESS_ERR_INTERNAL);
}
