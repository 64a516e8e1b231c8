#include "tools/inputs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "stream/import.h"

namespace syncproof::cli {

namespace {

bool is_pipe(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

lang::ParseResult unreadable(const std::string& name, std::string message, bool rejected) {
  lang::ParseResult r;
  r.c.file = name;
  lang::Diagnostic d{model::Severity::Error, {}, std::move(message), 1, true};
  d.rejected = rejected;
  r.diags.push_back(std::move(d));
  return r;
}

bool json_stream(const std::string& path, std::string_view text) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".json") return true;
  if (ext == ".sync") return false;
  const size_t at = text.find_first_not_of(" \t\r\n");
  return at != std::string_view::npos && text[at] == '{';
}

}  // namespace

std::vector<lang::CaseInput> collect_inputs(const std::vector<std::string>& args,
                                            std::set<std::string>& streams, std::string* error) {
  std::vector<lang::CaseInput> out;
  size_t stdin_args = 0;
  for (const std::string& a : args) {
    if (a == "-") {
      ++stdin_args;
      streams.insert(a);
      out.push_back({a, kStdinName, "", lang::FileProblem::None});
      continue;
    }
    if (is_pipe(a)) streams.insert(a);
    for (lang::CaseInput& in : lang::collect_case_files({a})) out.push_back(std::move(in));
  }
  if (stdin_args > 1) *error = "standard input ('-') can be read only once";
  return out;
}

lang::ParseResult read_stream_case(const lang::CaseInput& in, uint64_t max_bytes, bool* json) {
  *json = false;
  const bool std_in = in.path == "-";
  const int fd = std_in ? STDIN_FILENO : ::open(in.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return unreadable(in.display, fmt::format("cannot read the pipe: {}", std::strerror(errno)),
                      false);
  std::string text;
  char buf[1 << 16];
  std::string problem;
  bool too_large = false;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      problem = fmt::format("cannot read {}: {}", std_in ? "standard input" : "the pipe",
                            std::strerror(errno));
      break;
    }
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > max_bytes) {
      too_large = true;
      problem =
          fmt::format("is more than {} (--max-file-size): not read", lang::format_size(max_bytes));
      break;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  if (!std_in) ::close(fd);
  if (!problem.empty()) return unreadable(in.display, problem, too_large);
  *json = json_stream(in.path, text);
  if (*json) return stream::import_text(in.display, text);
  return lang::parse_case(in.display, text);
}

}  // namespace syncproof::cli
