#include "lang/source_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "lang/utf8.h"

namespace syncproof::lang {

namespace {

std::string errno_text(int e) {
  if (e == ELOOP) return "symlink loop (too many levels of symbolic links)";
  return std::strerror(e);
}

// What a file that is not a regular file is, for the message.
std::string_view file_kind(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

SourceText fail(FileProblem p, std::string message) {
  SourceText s;
  s.problem = p;
  s.message = std::move(message);
  return s;
}

SourceText check_stat(const struct stat& st, uint64_t max_bytes) {
  if (S_ISDIR(st.st_mode))
    return fail(FileProblem::Unreadable, "cannot read the file: is a directory");
  if (!S_ISREG(st.st_mode))
    return fail(FileProblem::Rejected,
                fmt::format("is {}, not a case file: not read", file_kind(st.st_mode)));
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes)
    return fail(FileProblem::Rejected,
                fmt::format("is {} ({} bytes), over the {} limit (--max-file-size): not read",
                            format_size(size), size, format_size(max_bytes)));
  return {};
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string format_size(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} {}", bytes, bytes == 1 ? "byte" : "bytes");
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 3) v /= 1024, ++u;
  if (v == static_cast<double>(static_cast<uint64_t>(v))) return fmt::format("{} {}", v, kUnits[u]);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

SourceText read_source(const std::string& path, uint64_t max_bytes) {
  // stat first: nothing is opened that is not a regular file within the limit.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return fail(FileProblem::Unreadable, "cannot read the file: " + errno_text(errno));
  if (SourceText s = check_stat(st, max_bytes); s.problem != FileProblem::None) return s;
  // O_NONBLOCK: should the path have been replaced by a FIFO since, open() does not wait.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0)
    return fail(FileProblem::Unreadable, "cannot read the file: " + errno_text(errno));
  if (::fstat(fd.get(), &st) != 0)
    return fail(FileProblem::Unreadable, "cannot read the file: " + errno_text(errno));
  if (SourceText s = check_stat(st, max_bytes); s.problem != FileProblem::None) return s;
  SourceText out;
  out.text.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(FileProblem::Unreadable, "cannot read the file: " + errno_text(errno));
    }
    if (n == 0) break;
    if (out.text.size() + static_cast<size_t>(n) > max_bytes)
      return fail(FileProblem::Rejected,
                  fmt::format("grew past the {} limit (--max-file-size) while being read: not read",
                              format_size(max_bytes)));
    out.text.append(buf, static_cast<size_t>(n));
  }
  return out;
}

std::string display_path(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out += "\\\\";
      ++i;
    } else if (c == '\n' || c == '\r' || c == '\t') {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02X}", c);
      ++i;
    } else if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else if (size_t n = utf8_sequence_length(s.substr(i)); n > 0) {
      // Decode to catch C1 controls (U+0080-U+009F) and the bidirectional controls.
      uint32_t cp = c & (0xFF >> (n + 1));
      for (size_t k = 1; k < n; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      const bool hidden = (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
                          (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
                          cp == 0x061C;
      if (hidden)
        out += fmt::format("\\u{{{:04X}}}", cp);
      else
        out.append(s.substr(i, n));
      i += n;
    } else {
      out += fmt::format("\\x{:02X}", c);
      ++i;
    }
  }
  return out;
}

}  // namespace syncproof::lang
