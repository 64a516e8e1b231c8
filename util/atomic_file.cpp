#include "util/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

namespace syncproof::util {

namespace fs = std::filesystem;

namespace {

// The file a write to `path` changes: the end of its chain of symbolic links (relative targets
// resolve against the link's own directory), or `path` itself when it is not a link. The end
// may not exist yet: writing through a dangling link creates its target, as `>` does.
std::optional<fs::path> final_target(const fs::path& path, std::string* error) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::error_code ec;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) {
      *error = ec.message();
      return std::nullopt;
    }
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  *error = "symlink loop (too many levels of symbolic links)";
  return std::nullopt;
}

bool write_all(int fd, std::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

// A new file next to `target`, created exclusively with mode 0666 (the umask applies, as for
// any new file); -1 with errno set when none can be made.
int create_temporary(const fs::path& target, std::string& name) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device seed;
  std::mt19937 rng(seed());
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string suffix;
    for (int i = 0; i < 6; ++i) suffix += kChars[rng() % (sizeof kChars - 1)];
    name = target.string() + ".tmp." + suffix;
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Where a write to `path` goes and what is there now; an error when it cannot be written.
struct Destination {
  bool exists = false;
  struct stat st {};    // of the existing file (links followed)
  bool direct = false;  // a device, FIFO or socket: written to, not replaced
  fs::path target;      // the file to replace (links resolved)
  fs::path dir;         // its directory
};

std::optional<std::string> inspect(const std::string& path, Destination& d) {
  const auto fail = [&](std::string_view why) {
    return fmt::format("cannot write {}: {}", path, why);
  };
  if (path.empty()) return std::string("cannot write a file with an empty name");
  d.exists = ::stat(path.c_str(), &d.st) == 0;  // follows links
  if (d.exists && S_ISDIR(d.st.st_mode)) return fail("it is a directory");
  if (d.exists && (S_ISCHR(d.st.st_mode) || S_ISFIFO(d.st.st_mode) || S_ISSOCK(d.st.st_mode))) {
    d.direct = true;  // `-o /dev/stdout`, a terminal, a pipe: nothing to replace, only to write to
    return std::nullopt;
  }
  std::string why;
  const auto target = final_target(path, &why);
  if (!target) return fail(why);
  d.target = *target;
  d.dir = target->has_parent_path() ? target->parent_path() : fs::path(".");
  struct stat dst {};
  if (::stat(d.dir.c_str(), &dst) != 0 || !S_ISDIR(dst.st_mode))
    return fail(fmt::format("the directory {} does not exist", d.dir.string()));
  if (d.exists && ((d.st.st_mode & 0222) == 0 || ::access(target->c_str(), W_OK) != 0))
    return fail(
        "it is read-only (not changed: make it writable first, e.g. chmod u+w, or open it for "
        "edit in version control)");
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_writable(const std::string& path) {
  Destination d;
  return inspect(path, d);
}

std::optional<std::string> write_file_atomically(const std::string& path, std::string_view text) {
  const auto fail = [&](std::string_view why) {
    return fmt::format("cannot write {}: {}", path, why);
  };
  Destination dest;
  if (auto err = inspect(path, dest)) return err;
  const struct stat& st = dest.st;
  const bool exists = dest.exists;
  if (dest.direct) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return fail(std::strerror(errno));
    const bool ok = write_all(fd, text);
    const int err = errno;
    ::close(fd);
    if (!ok) return fail(std::strerror(err));
    return std::nullopt;
  }
  const fs::path& target = dest.target;
  const fs::path& dir = dest.dir;

  std::string name;
  const int fd = create_temporary(target, name);
  if (fd < 0) return fail(std::strerror(errno));
  const auto abandon = [&](std::string_view reason) {
    ::close(fd);
    ::unlink(name.c_str());
    return fail(reason);
  };
  if (exists) {
    // The owner first: changing it can clear the set-user-ID and set-group-ID bits.
    struct stat tmp {};
    if (::fstat(fd, &tmp) != 0) return abandon(std::strerror(errno));
    if ((tmp.st_uid != st.st_uid || tmp.st_gid != st.st_gid) &&
        ::fchown(fd, st.st_uid, st.st_gid) != 0)
      return abandon(fmt::format("its owner and group ({}:{}) cannot be kept ({}); not changed",
                                 st.st_uid, st.st_gid, std::strerror(errno)));
    if (::fchmod(fd, st.st_mode & 07777) != 0) return abandon(std::strerror(errno));
  }
  if (!write_all(fd, text) || ::fsync(fd) != 0) return abandon(std::strerror(errno));
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(name.c_str());
    return fail(std::strerror(err));
  }
  if (::rename(name.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(name.c_str());
    return fail(std::strerror(err));
  }
  // The rename itself reaches the disk with the directory.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return std::nullopt;
}

}  // namespace syncproof::util
