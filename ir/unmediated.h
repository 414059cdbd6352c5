// The syscalls a filter traps only to observe them: each is allowed and,
// when it is I/O the fault rules cannot see, recorded as an
// `unmediated_io[<category>]` event (docs/run.md, "Unmediated I/O"). The one
// table of them; the lowering puts the entries each service's filter
// observes in the leaf program (LeafTest::observes), `fbc ir` prints them
// next to the trap sets, and the runtime traps and classifies exactly those.
//
// Two kinds of entry:
//   - bypasses: io_uring, a shared writable file mapping, msync, sendfile,
//     splice, copy_file_range, sync_file_range, syncfs do a family's I/O
//     without its syscalls. Observed on a service whose rules could name a
//     family they bypass (and under determinism()); an event is recorded
//     while such a rule is in force (category fs-unmediated).
//   - determinism sources: getrandom and opens of /dev/urandom or
//     /dev/random (rand), the clock syscalls (clock), connect and addressed
//     sendto (dns, network-unmediated: by destination), raw sockets
//     (network-unmediated). Observed on every filtered service when the spec
//     calls determinism() at level L1.
// The categories are those of ir/spec.h's determinismCategories().
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fbc::ir {

// Which calls of the syscall the filter traps (the runtime's filter checks
// the arguments; runtime/supervisor/unmediated_io.h holds both encodings).
enum class TrapWhen : unsigned char {
  Always,
  SharedWritableFileMap, // mmap: MAP_SHARED, not MAP_ANONYMOUS, PROT_WRITE
  AddressedSend,         // sendto with a destination address (args[4] != NULL)
  RawSocket,             // socket: SOCK_RAW, or the AF_PACKET domain
};

struct ObservedEntry {
  std::string_view name; // as `fbc ir` prints it: "mmap[shared-write]", "open[/dev/urandom]"
  // The syscall; for an Always entry a keyword stands for its family ("open").
  std::string_view syscall;
  TrapWhen when;
  // Bypass entries: the syscall keywords (families) whose I/O the entry
  // does without them; empty for a determinism source.
  std::span<const std::string_view> bypasses;
  // The categories its events can carry (connect: dns or network-unmediated).
  std::span<const std::string_view> categories;
  // A transfer between two fds (sendfile, splice, copy_file_range): into a
  // pipe it only reads, and bypasses these families instead.
  std::span<const std::string_view> bypassesIntoPipe = {};
};

std::span<const ObservedEntry> observedEntries();
const ObservedEntry *findObservedEntry(std::string_view name);

// The entries a service's filter observes, sorted by name: the bypasses of
// the families in `traps` (a trap set of LeafTest::traps: keywords, family
// members, or other syscall names), and with `determinism` every entry.
std::vector<std::string> observedFor(const std::vector<std::string> &traps, bool determinism);

// Whether `syscall` (a keyword or a syscall name) is, or belongs to the
// family of, one of `keywords`.
bool inFamilies(std::string_view syscall, std::span<const std::string_view> keywords);

} // namespace fbc::ir
