// The VM's published-plugin directory in the DRD (VM_SERVICES.md, prefix
// vm/plugins/): one record per component and repository,
// vm/plugins/<package>/<component>/<repository URL> = pack(str repository
// URL, str package, str component, str version, str info JSON, i64
// publication time in ms since the epoch), replication "voters". Every
// daemon, also one that joined or restarted after a publication, finds
// every publication there. Reads use this daemon's replica (no consensus
// round per plugin lookup); both go through the host API's call_local, so
// they need vm/drd loaded here and do nothing otherwise.
#pragma once

#include "plugin_directory.hpp"

#include <harness/common/plugin.h>
#include <harness/common/result.hpp>

#include <vector>

namespace harness::hcore {

// The publications recorded in the DRD, newest first; empty when vm/drd is
// not loaded here or cannot answer.
std::vector<PublishedPlugin> read_published_records(const harness_host_api *host);

// Records publications in the DRD (waits for consensus: call it off the I/O
// thread).
Result<void> write_published_records(const harness_host_api *host, const std::vector<PublishedPlugin> &entries);

}  // namespace harness::hcore
