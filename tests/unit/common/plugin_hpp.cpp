// C++ plugin helpers (harness/common/plugin.hpp): AUTO wrappers built from typed
// functions, their signatures, native pointers and error handling.
#include <harness/common/plugin.hpp>
#include <harness/common/signature.hpp>

#include <doctest/doctest.h>

#include <stdexcept>

using namespace harness;

namespace {

std::int64_t add(std::int64_t a, std::int64_t b) {
    return a + b;
}
std::string greet(std::string_view who) {
    return "hello " + std::string(who);
}
double half(double x) {
    return x / 2;
}
std::int64_t boom(std::string_view why) {
    throw std::runtime_error(std::string(why));
}
std::int64_t weird() {
    throw 42;
}
void nothing() {}

// Calls an AUTO entry the way a host does; returns the status, fills result
// and the error text.
int call(const harness_function &f, std::vector<harness_value> args, harness_value &result, std::string &error) {
    harness_buf err{};
    harness_call_ctx ctx{sizeof(harness_call_ctx), nullptr, nullptr, &err};
    int status = f.automatic(&ctx, args.data(), args.size(), &result);
    error.assign(reinterpret_cast<const char *>(err.data), err.len);
    harness_buf_free(&err);
    return status;
}

harness_value i64(std::int64_t v) {
    harness_value x{};
    x.type = HARNESS_T_I64;
    x.v.i64 = v;
    return x;
}

harness_value str(std::string_view s) {
    harness_value x{};
    x.type = HARNESS_T_STR;
    x.v.blob.data = s.data();
    x.v.blob.len = s.size();
    return x;
}

}  // namespace

TEST_CASE("auto_function fills a well-formed entry") {
    harness_function f = auto_function<&add>("add");
    CHECK(f.struct_size == sizeof(harness_function));
    CHECK(std::string(f.name) == "add");
    CHECK(f.convention == HARNESS_CALL_AUTO);
    CHECK(f.default_mode == HARNESS_MODE_INLINE);
    CHECK(std::string(f.signature) == "i64(i64,i64)");
    CHECK((f.automatic != nullptr));
    CHECK((f.raw == nullptr));
    CHECK((f.packed == nullptr));
    CHECK(parse_signature(f.signature).ok());

    harness_function t = auto_function<&half>("half", HARNESS_MODE_THREAD);
    CHECK(t.default_mode == HARNESS_MODE_THREAD);
    CHECK(std::string(t.signature) == "f64(f64)");
    CHECK(std::string(auto_function<&nothing>("n").signature) == "void()");
}

TEST_CASE("scalar functions publish a native pointer, blob ones do not") {
    harness_function f = auto_function<&add>("add");
    REQUIRE((f.native != nullptr));
    auto native = reinterpret_cast<std::int64_t (*)(std::int64_t, std::int64_t)>(f.native);
    CHECK(native(2, 3) == 5);
    CHECK((auto_function<&greet>("greet").native == nullptr));
}

TEST_CASE("the wrapper calls the function and returns owned blobs") {
    harness_value r{};
    std::string error;
    CHECK(call(auto_function<&add>("add"), {i64(40), i64(2)}, r, error) == HARNESS_OK);
    CHECK(r.type == HARNESS_T_I64);
    CHECK(r.v.i64 == 42);

    harness_value s{};
    CHECK(call(auto_function<&greet>("greet"), {str("you")}, s, error) == HARNESS_OK);
    REQUIRE(s.type == HARNESS_T_STR);
    CHECK(s.v.blob.owned == 1);
    CHECK(std::string(static_cast<const char *>(s.v.blob.data), s.v.blob.len) == "hello you");
    release_value(s);

    harness_value v{};
    v.type = 99;
    CHECK(call(auto_function<&nothing>("nothing"), {}, v, error) == HARNESS_OK);
    CHECK(v.type == 0);
}

TEST_CASE("exceptions become PLUGIN_FAILED with their message") {
    harness_value r{};
    std::string error;
    CHECK(call(auto_function<&boom>("boom"), {str("it broke")}, r, error) == HARNESS_ERR_PLUGIN_FAILED);
    CHECK(error == "it broke");
    CHECK(call(auto_function<&weird>("weird"), {}, r, error) == HARNESS_ERR_PLUGIN_FAILED);
    CHECK(error == "unknown exception");
}

TEST_CASE("a wrong argument count is a type mismatch") {
    harness_value r{};
    std::string error;
    CHECK(call(auto_function<&add>("add"), {i64(1)}, r, error) == HARNESS_ERR_TYPE_MISMATCH);
    CHECK_FALSE(error.empty());
}

TEST_CASE("packed and raw entries") {
    auto packed = [](harness_call_ctx *, harness_reader *, harness_buf *) noexcept { return 0; };
    auto raw = [](harness_call_ctx *, int) noexcept { return 0; };
    constexpr harness_function p = packed_function("p", +packed, HARNESS_MODE_FORK);
    constexpr harness_function r = raw_function("r", +raw);
    CHECK(p.convention == HARNESS_CALL_PACKED);
    CHECK(p.default_mode == HARNESS_MODE_FORK);
    CHECK((p.packed != nullptr));
    CHECK(p.signature == nullptr);
    CHECK(r.convention == HARNESS_CALL_RAW);
    CHECK((r.raw != nullptr));
}

TEST_CASE("set_call_error appends and tolerates a missing buffer") {
    harness_buf err{};
    harness_call_ctx ctx{sizeof(harness_call_ctx), nullptr, nullptr, &err};
    set_call_error(&ctx, "one ");
    set_call_error(&ctx, "two");
    CHECK(std::string(reinterpret_cast<const char *>(err.data), err.len) == "one two");
    harness_buf_free(&err);
    harness_call_ctx none{sizeof(harness_call_ctx), nullptr, nullptr, nullptr};
    set_call_error(&none, "dropped");
    set_call_error(nullptr, "dropped");
}
