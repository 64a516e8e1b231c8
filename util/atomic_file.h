#pragma once
// Writing a whole file so that readers only ever see the old file or the complete new one: the
// text goes to a temporary file in the target's directory, which is flushed to disk and renamed
// over the target. A run interrupted while writing leaves at most a `NAME.tmp.XXXXXX` file
// behind, never a half-written NAME. Used by every report, trace, export and `fix --apply`.
//
// What a user expects of an edited file is kept:
//  - a symbolic link is followed and its target rewritten (the link stays a link);
//  - an existing file keeps its permission bits, owner and group (a file whose owner or group
//    cannot be kept is not written); a new file gets 0666 less the umask, as `>` would give;
//  - a file without any write permission bit (as version control such as Perforce leaves a file
//    that is not opened for edit), or one the user may not write, is refused, not replaced;
//  - the directory must exist: a missing one is an error, never created in silence;
//  - a character device or FIFO (`-o /dev/stdout`) is written to directly, not replaced.
#include <optional>
#include <string>
#include <string_view>

namespace syncproof::util {

// Returns an error message naming the file ("cannot write r.xml: No space left on device",
// "cannot write f.sync: it is read-only (...)"), or nullopt on success.
std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text);

// The checks write_file_atomically makes before it writes (a directory in the way, a missing
// directory, a read-only file, a symlink loop), without writing: for a command to refuse an
// output before it starts work rather than after. nullopt: nothing stands in the way yet.
std::optional<std::string> check_writable(const std::string& path);

}  // namespace syncproof::util
