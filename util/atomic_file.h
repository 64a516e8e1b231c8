#pragma once
// Writing a whole file so that readers only ever see the old file or the complete new one: the
// text goes to a temporary file in the same directory, which is flushed to disk and renamed over
// the target. A run interrupted while writing leaves at most a `NAME.tmp.XXXXXX` file behind,
// never a half-written NAME. Used by every report, trace and export the CLI writes.
#include <optional>
#include <string>
#include <string_view>

namespace syncproof::util {

// Creates missing parent directories. Returns an error message ("cannot write r.xml: No space
// left on device"), or nullopt on success.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text);

}  // namespace syncproof::util
