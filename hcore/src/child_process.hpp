// What a forked handler process does first: die with the daemon, restore
// default signal handling (the daemon's handlers write into its own Asio
// pipes), and keep only the descriptors it needs, moved to 3, 4, … so that
// listening sockets and other clients' connections are not held open by it.
#pragma once

#include <initializer_list>

namespace harness::hcore {

// Returns the new numbers of keep, in order. Call only in the forked child.
void prepare_child(std::initializer_list<int *> keep);

// Writes all of len bytes (retrying on EINTR and short writes).
bool write_all(int fd, const void *data, unsigned long len);
// Reads exactly len bytes; false on EOF or error.
bool read_all(int fd, void *data, unsigned long len);

}  // namespace harness::hcore
