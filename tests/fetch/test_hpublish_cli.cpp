// The hpublish command line as a publisher uses it: keygen, export-key,
// publish; then a daemon imports the key (hcored --import-key) and fetches.
#include "support/fetch_fixture.hpp"

#include <doctest/doctest.h>

using namespace fetchtest;

TEST_CASE("hpublish keygen, export-key and publish produce a repository a daemon accepts") {
    TempDir tmp;
    fs::path pub = tmp.path() / "pub";
    fs::path www = tmp.path() / "www";
    fs::path daemon_home = tmp.path() / "daemon-gnupg";
    GpgHome pub_home(pub);
    GpgHome daemon_gpg(daemon_home);

    std::string out;
    REQUIRE(run({HPUBLISH_EXE, "keygen", "--gnupghome", pub.string(), "--name", "CLI test <cli@example.org>"}, {},
                &out) == 0);
    std::string fpr = out.substr(0, out.find('\n'));
    REQUIRE(harness::repo::normalize_fingerprint(fpr) == fpr);

    fs::path key = tmp.path() / "publisher.asc";
    REQUIRE(run({HPUBLISH_EXE, "export-key", "--gnupghome", pub.string(), "--signer", fpr, "--out", key.string()}) ==
            0);
    CHECK(read_text(key).find("BEGIN PGP PUBLIC KEY BLOCK") != std::string::npos);

    out.clear();
    REQUIRE(run({HPUBLISH_EXE, "--repo", www.string(), "--gnupghome", pub.string(), "--signer", fpr, "--ttl", "120",
                 "--expires", "7", (plugin_dir() / "fetchtest").string()},
                {}, &out) == 0);
    CHECK(out.find("index_version 1") != std::string::npos);
    CHECK(fs::exists(www / "index.json.sig"));
    CHECK(fs::exists(www / "packages" / "fetchtest" / "alpha-1.0.0.so"));
    CHECK(fs::exists(www / "packages" / "fetchtest" / "beta-1.0.0.json"));

    auto index = harness::repo::parse_index(read_text(www / "index.json"));
    REQUIRE(index.ok());
    CHECK(index->components.size() == 3);  // alpha, beta and ops (an application-level plugin with an interface)
    CHECK(index->components.at(0).cache_ttl_seconds == 120);
    CHECK(index->components.at(0).arch == harness::repo::host_arch());

    // The daemon side: --import-key FILE, then the signature verifies with --trust FPR.
    auto imported = harness::import_daemon_key(daemon_home, key);
    REQUIRE(imported.ok());
    CHECK(imported->at(0) == fpr);
    auto signer = harness::repo::verify_detached(daemon_home, read_text(www / "index.json"),
                                                 read_text(www / "index.json.sig"), {fpr});
    REQUIRE_MESSAGE(signer.ok(), (signer.ok() ? "" : signer.error().describe()));
    CHECK(*signer == fpr);
    CHECK_FALSE(daemon_gpg.agent_running());

    // A binary (non-armored) detached signature made by gpg itself verifies too.
    fs::path binsig = tmp.path() / "index.json.binsig";
    REQUIRE(run({"gpg", "--batch", "--yes", "--local-user", fpr, "--output", binsig.string(), "--detach-sign",
                 (www / "index.json").string()},
                pub) == 0);
    auto bin = harness::repo::verify_detached(daemon_home, read_text(www / "index.json"), read_text(binsig), {fpr});
    REQUIRE_MESSAGE(bin.ok(), (bin.ok() ? "" : bin.error().describe()));

    // Publishing again bumps the version.
    out.clear();
    REQUIRE(run({HPUBLISH_EXE, "--repo", www.string(), "--gnupghome", pub.string(), "--signer", fpr,
                 (plugin_dir() / "fetchtest" / "alpha.json").string()},
                {}, &out) == 0);
    CHECK(out.find("index_version 2") != std::string::npos);

    // hpublish verify: the daemon's checks on the directory.
    REQUIRE(run({HPUBLISH_EXE, "verify", "--repo", www.string(), "--gnupghome", pub.string(), "--trust", fpr}) == 0);
    auto so = www / "packages" / "fetchtest" / "alpha-1.0.0.so";
    write_text(so, read_text(so) + "x");
    CHECK(run({HPUBLISH_EXE, "verify", "--repo", www.string(), "--gnupghome", pub.string(), "--trust", fpr}) == 1);

    // Missing arguments: non-zero status.
    CHECK(run({HPUBLISH_EXE, "--repo", www.string()}) != 0);
}
