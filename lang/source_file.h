#pragma once
// Reading case files without surprises: the file is stat-ed before it is opened, only regular
// files are read (a FIFO would block, a device never ends), nothing over the size limit is
// read, and the read itself stops at the limit should the file grow meanwhile. File names are
// shown escaped, so a name cannot split or forge a `file:line:col` line or drive the terminal.
#include <cstdint>
#include <string>
#include <string_view>

namespace syncproof::lang {

// The default --max-file-size: far above any real case (the 2,000-command benchmark stream is
// 115 KiB, a 50,000-command frame about 3 MiB).
inline constexpr uint64_t kDefaultMaxFileSize = uint64_t{64} << 20;

enum class FileProblem : uint8_t {
  None,
  Unreadable,  // missing, permission denied, a directory, a symlink loop, an I/O error
  Rejected,    // not a regular file (FIFO, device, socket) or over the size limit: not read
};

struct SourceText {
  std::string text;
  FileProblem problem = FileProblem::None;
  std::string message;  // the problem, e.g. "is a FIFO (named pipe), not a case file: not read"
};

SourceText read_source(const std::string& path, uint64_t max_bytes = kDefaultMaxFileSize);

// "64 MiB", "1.5 KiB", "200 bytes": for messages about sizes.
std::string format_size(uint64_t bytes);

// A path as printed: printable ASCII and valid UTF-8 pass through; a backslash is doubled;
// \n \r \t print as such; other control bytes, DEL, C1 controls, invalid UTF-8 and the Unicode
// bidirectional controls (U+202A-U+202E, U+2066-U+2069) print as \xNN / \u{NNNN}.
std::string display_path(std::string_view path);

}  // namespace syncproof::lang
