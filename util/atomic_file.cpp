#include "util/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace syncproof::util {

namespace fs = std::filesystem;

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text) {
  const auto fail = [&](int err) {
    return fmt::format("cannot write {}: {}", path, std::strerror(err));
  };
  if (path.empty()) return std::string("cannot write a file with an empty name");
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (fs::is_directory(target, ec)) return fmt::format("cannot write {}: it is a directory", path);
  std::string tmpl = path + ".tmp.XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) return fail(errno);
  const auto abandon = [&](int err) {
    ::close(fd);
    ::unlink(name.data());
    return fail(err);
  };
  ::fchmod(fd, 0644);
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon(errno);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) return abandon(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(name.data());
    return fail(err);
  }
  if (::rename(name.data(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(name.data());
    return fail(err);
  }
  return std::nullopt;
}

}  // namespace syncproof::util
