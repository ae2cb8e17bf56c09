// Policy files the chain refuses, each with one line naming the file, the
// component and the problem; and what the files' values become.
#include "policy_support.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

using policytest::load;
using policytest::refusal;

TEST_CASE("not JSON, not an object, an unknown top-level key, no detectors") {
    std::string not_json = refusal(R"({"detectors": [ {"component": "process"} )");
    CHECK(not_json.rfind("policy.json: not JSON (parse error", 0) == 0);
    CHECK(refusal("[1]") == "policy.json: an array, expected a JSON object");
    CHECK(refusal(R"({"detectors": [{"component": "process"}], "detector": []})") ==
          "policy.json: unknown key 'detector' (a policy has detectors, protocols and placement)");
    CHECK(refusal(R"({"detectors": []})") == "policy.json: detectors: a non-empty array of detectors is required");
    CHECK(refusal(R"({"placement": {"component": "sliding"}})") ==
          "policy.json: detectors: a non-empty array of detectors is required");
    CHECK(refusal(R"({"detectors": [{"threshold": 2}]})") ==
          "policy.json: detectors[0]: no \"component\" (a string naming the component)");
}

TEST_CASE("an unknown component is refused when the file is loaded, naming it") {
    std::string detector = refusal(R"({"detectors": [{"component": "repeted"}]})");
    CHECK(detector.rfind("policy.json: detector 'repeted': no such component (detector/repeted: not found", 0) == 0);

    std::string protocol = refusal(R"({"detectors": [{"component": "process", "protocol": "RESTRAT"}]})");
    CHECK(protocol.rfind("policy.json: protocol 'RESTRAT' (chosen by detectors[0] (process)): no such component "
                         "(protocol/restrat: not found",
                         0) == 0);

    std::string placement =
        refusal(R"({"detectors": [{"component": "process"}], "placement": {"component": "slidin"}})");
    CHECK(placement.rfind("policy.json: placement 'slidin': no such component (placement/slidin: not found", 0) == 0);
}

TEST_CASE("bad values are refused by the component's open, naming the key and the value") {
    CHECK(refusal(R"({"detectors": [{"component": "physical"}, {"component": "network", "threshold": 2}]})") ==
          "policy.json: detectors[1] (network): threshold '2': not a fraction in (0,1]");
    CHECK(refusal(R"({"detectors": [{"component": "repeated", "threshold": 0}]})") ==
          "policy.json: detectors[0] (repeated): threshold '0': not an integer >= 1");
    CHECK(refusal(R"({"detectors": [{"component": "repeated", "threshold": 1.5}]})") ==
          "policy.json: detectors[0] (repeated): threshold '1.5': not an integer >= 1");
    CHECK(refusal(R"({"detectors": [{"component": "network", "threshold": "abc"}]})") ==
          "policy.json: detectors[0] (network): threshold 'abc': not a fraction in (0,1]");
    CHECK(refusal(R"({"detectors": [{"component": "process", "protocol": "abc"}]})") ==
          "policy.json: detectors[0] (process): protocol 'abc': not a protocol name (upper case, e.g. RESTART, "
          "MIGRATE)");
    CHECK(refusal(R"({"detectors": [{"component": "network", "threshold": true}]})") ==
          "policy.json: detectors[0] (network): threshold 'true': not a fraction in (0,1]");
    CHECK(refusal(R"({"detectors": [{"component": "process"}], "protocols": {"PROMOTE": {"fallback": "x"}}})") ==
          "policy.json: protocols.PROMOTE: fallback 'x': not migrate, restart or none");
    CHECK(refusal(R"({"detectors": [{"component": "process"}],
                      "placement": {"component": "sliding", "method": "sideways"}})")
              .rfind("policy.json: placement (sliding): method 'sideways': ", 0) == 0);
}

TEST_CASE("an unknown configuration key is refused, naming it") {
    CHECK(refusal(R"({"detectors": [{"component": "repeated", "treshold": 3}]})") ==
          "policy.json: detectors[0] (repeated): unknown key 'treshold' (it takes protocol, threshold)");
    CHECK(refusal(R"({"detectors": [{"component": "process"}], "protocols": {"RESTART": {"fallbak": "none"}}})") ==
          "policy.json: protocols.RESTART: unknown key 'fallbak' (it takes fallback)");
    CHECK(refusal(R"({"detectors": [{"component": "process"}],
                      "placement": {"component": "sliding", "methods": "1D"}})") ==
          "policy.json: placement (sliding): unknown key 'methods' (it takes method)");
}

TEST_CASE("values other than strings, numbers and booleans are refused; numbers pass as written") {
    CHECK(refusal(R"({"detectors": [{"component": "network", "threshold": [0.5]}]})") ==
          "policy.json: detectors[0] (network): threshold: an array (a value is a string, a number or a boolean)");
    CHECK(refusal(R"({"detectors": [{"component": "network", "threshold": null}]})") ==
          "policy.json: detectors[0] (network): threshold: null (a value is a string, a number or a boolean)");
    CHECK(refusal(R"({"detectors": [{"component": "process"}], "protocols": {"restart": {}}})") ==
          "policy.json: protocols.restart: 'restart' is not a protocol name (upper case, e.g. RESTART)");
    auto policy = load(R"({"detectors": [{"component": "network", "threshold": 0.6}, {"component": "process"}]})");
    CHECK(policy->describe() == "detectors network(threshold=0.6) > process");
}

TEST_CASE("from_file names the file; a missing file is one line too") {
    auto dir = std::filesystem::temp_directory_path() / ("policy_file_test." + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    auto file = dir / "policy.json";
    std::ofstream(file) << R"({"detectors": [{"component": "physical"}, {"component": "network", "threshold": 7}]})";
    auto policy = harness::policy::Policy::from_file(file, policytest::plugins_root());
    REQUIRE_FALSE(policy.ok());
    CHECK(policy.error().message == file.string() + ": detectors[1] (network): threshold '7': not a fraction in (0,1]");

    auto missing = harness::policy::Policy::from_file(dir / "nope.json", policytest::plugins_root());
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == (dir / "nope.json").string() + ": cannot read it (No such file or directory)");
    std::filesystem::remove_all(dir);
}
