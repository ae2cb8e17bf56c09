// hpublish — publish built plugins into a signed web repository.
//
//   hpublish --repo DIR --gnupghome DIR --signer FPR [--ttl S] [--expires DAYS]
//            [--url URL [--hcore HOST:PORT] [--root DIR] [--key FILE]] PLUGIN…
//   hpublish keygen --gnupghome DIR --name NAME
//   hpublish export-key --gnupghome DIR --signer FPR --out FILE
//   hpublish verify --repo DIR --gnupghome DIR --trust FPR…
#include <harness/fetch/repo_keys.hpp>
#include <harness/publish/publish.hpp>
#include <harness/publish/publish_push.hpp>

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

namespace {

int fail(const harness::Error &e) {
    std::cerr << "hpublish: " << e.message << "\n";
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    CLI::App app{"hpublish: add built HARNESS plugins to a signed web repository (see webrepo/README.md).\n"
                 "Copies each plugin's .so and manifest to packages/<PKG>/, updates index.json, bumps\n"
                 "index_version, sets the expiry and writes the detached signature index.json.sig."};
    app.require_subcommand(0, 1);

    harness::publish::PublishOptions opts;
    std::string repo, gnupghome, signer;
    long long ttl = -1;
    double expires_days = 30;
    std::vector<std::string> plugins;
    std::string url, hcore, root, key_file;
    app.add_option("--repo", repo, "repository directory (served by the web server)");
    app.add_option("--gnupghome", gnupghome, "GnuPG home holding the signer's secret key");
    app.add_option("--signer", signer, "full fingerprint of the signing key");
    app.add_option("--ttl", ttl, "cache TTL in seconds for the published plugins (default: the manifest's)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--expires", expires_days, "the index expires this many days from now")
        ->default_val(30)
        ->check(CLI::PositiveNumber);
    app.add_option("--url", url,
                   "the repository's URL as daemons reach it: tell the VM where the plugins are (PUBLISH)");
    app.add_option("--hcore", hcore, "daemon to tell, HOST:PORT (env HARNESS_HCORE; default the local daemon)");
    app.add_option("--root", root, "HARNESS root of the local daemon (env HARNESS_ROOT, default ~/.harness)");
    app.add_option("--key", key_file, "VM key file (env HARNESS_KEY, default <root>/vm.key)");
    app.add_option("PLUGIN", plugins, "a built plugin's manifest (COMP.json, with COMP.so beside it) or a folder");

    auto *keygen =
        app.add_subcommand("keygen", "generate a passphrase-less ed25519 signing key; prints its fingerprint");
    std::string key_home, key_name;
    keygen->add_option("--gnupghome", key_home, "GnuPG home to create the key in")->required();
    keygen->add_option("--name", key_name, "user id, e.g. \"HARNESS demo publisher <demo@example.org>\"")->required();

    auto *exportk =
        app.add_subcommand("export-key", "write the signer's public key (armored) for daemons' --import-key");
    std::string exp_home, exp_signer, exp_out;
    exportk->add_option("--gnupghome", exp_home, "GnuPG home holding the key")->required();
    exportk->add_option("--signer", exp_signer, "full fingerprint of the key")->required();
    exportk->add_option("--out", exp_out, "output file")->required();

    auto *verify = app.add_subcommand("verify",
                                      "check a repository directory as a daemon would: signature by a "
                                      "trusted key, expiry, size and SHA-256 of every file");
    std::string ver_repo, ver_home;
    std::vector<std::string> ver_trust;
    verify->add_option("--repo", ver_repo, "repository directory")->required();
    verify->add_option("--gnupghome", ver_home, "GnuPG home holding the publisher's public key")->required();
    verify->add_option("--trust", ver_trust, "trusted full fingerprint (repeatable)")->required();

    CLI11_PARSE(app, argc, argv);

    if (*verify) {
        auto index = harness::publish::verify_repository(ver_repo, ver_home, ver_trust);
        if (!index) return fail(index.error());
        std::cout << "ok: index_version " << index->index_version << ", " << index->components.size()
                  << " components, expires " << harness::repo::format_utc(index->expires) << "\n";
        return 0;
    }

    if (*keygen) {
        auto fpr = harness::repo::generate_signing_key(key_home, key_name);
        if (!fpr) return fail(fpr.error());
        std::cout << *fpr << "\n";
        return 0;
    }
    if (*exportk) {
        auto key = harness::repo::export_public_key(exp_home, exp_signer);
        if (!key) return fail(key.error());
        std::ofstream out(exp_out, std::ios::trunc);
        out << *key;
        if (!out.flush()) return fail(harness::make_error(HARNESS_ERR_INTERNAL, "cannot write " + exp_out));
        return 0;
    }

    if (repo.empty() || gnupghome.empty() || signer.empty() || plugins.empty()) {
        std::cerr << "hpublish: --repo, --gnupghome, --signer and at least one PLUGIN are required (see --help)\n";
        return 2;
    }
    opts.repo_dir = repo;
    opts.gnupghome = gnupghome;
    opts.signer = harness::repo::normalize_fingerprint(signer);
    if (opts.signer.empty()) {
        std::cerr << "hpublish: --signer needs the full fingerprint (40 hex digits)\n";
        return 2;
    }
    if (ttl >= 0) opts.ttl = std::chrono::seconds(ttl);
    opts.expires_in = std::chrono::seconds(static_cast<long long>(expires_days * 86400));

    std::vector<harness::publish::PluginFiles> files;
    for (const auto &p : plugins) {
        auto found = harness::publish::find_plugins(p);
        if (!found) return fail(found.error());
        files.insert(files.end(), found->begin(), found->end());
    }
    auto index = harness::publish::publish(opts, files);
    if (!index) return fail(index.error());
    for (const auto &f : files) std::cout << "published " << f.manifest.string() << "\n";
    std::cout << "index_version " << index->index_version << " expires " << harness::repo::format_utc(index->expires)
              << " signed by " << opts.signer << "\n";
    if (url.empty()) return 0;

    std::vector<harness::repo::IndexEntry> entries;
    for (const auto &f : files) {
        auto manifest = harness::read_manifest(f.manifest);
        if (!manifest) return fail(manifest.error());
        if (const auto *e = index->find({manifest->package, manifest->component})) entries.push_back(*e);
    }
    auto vm = harness::hlib::ConnectOptions::from_command_line(root, key_file, hcore);
    if (!vm) return fail(vm.error());
    if (auto pushed = harness::publish::push_to_vm(*vm, url, entries); !pushed)
        return fail(harness::make_error(pushed.error().status,
                                        "published, but telling the VM failed: " + pushed.error().describe()));
    std::cout << "told the VM: " << entries.size() << " component(s) at " << url << "\n";
    return 0;
}
