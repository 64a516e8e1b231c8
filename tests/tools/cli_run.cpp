#include "cli_run.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace syncproof::testing {

namespace fs = std::filesystem;

CliRun run_cli(const std::vector<std::string>& args, const CliOptions& o) {
  int out_pipe[2], err_pipe[2], in_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 ||
      ::pipe2(in_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
  std::vector<std::string> argv_s{SYNCPROOF_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The environment is built here: after fork() the child calls only async-signal-safe functions.
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv(*e);
    const std::string_view key = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (const auto& [k, v] : o.env) replaced |= key == k;
    if (!replaced) env_s.emplace_back(kv);
  }
  for (const auto& [k, v] : o.env) env_s.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {  // the child: only async-signal-safe calls from here on
    if (o.input.empty()) {
      const int null = ::open("/dev/null", O_RDONLY);
      ::dup2(null, 0);
    } else {
      ::dup2(in_pipe[0], 0);
    }
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    if (!o.cwd.empty() && ::chdir(o.cwd.c_str()) != 0) ::_exit(127);
    if (o.as_nobody && ::geteuid() == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
        ::_exit(126);
    }
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ::close(in_pipe[0]);
  CliRun r;
  const auto deadline = std::chrono::steady_clock::now() + o.deadline;
  // The input is written as the child reads it; its end closes the pipe (end of file).
  int in_fd = in_pipe[1];
  if (!o.input.empty()) ::signal(SIGPIPE, SIG_IGN);  // a child that stops reading: EPIPE, no signal
  ::fcntl(in_fd, F_SETFL, O_NONBLOCK);
  size_t written = 0;
  if (o.input.empty()) ::close(in_fd), in_fd = -1;
  pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {in_fd, POLLOUT, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open = 2;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const int n = ::poll(fds, 3, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t k = (fds[2].revents & POLLOUT)
                            ? ::write(fds[2].fd, o.input.data() + written, o.input.size() - written)
                            : -1;
      if (k > 0) written += static_cast<size_t>(k);
      if (k < 0 || written == o.input.size()) {  // done, or the child closed its end
        ::close(fds[2].fd);
        fds[2].fd = -1;
      }
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t k = ::read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        sinks[i]->append(buf, static_cast<size_t>(k));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!r.timed_out && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (!r.timed_out && WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/syncproof-test-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
  ::chmod(path_.c_str(), 0755);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  // Give every directory its permissions back, or remove_all cannot go in.
  for (auto it = fs::recursive_directory_iterator(path_, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0755);
  }
  ::chmod(path_.c_str(), 0755);
  fs::remove_all(path_, ec);
}

std::string ScratchDir::write(const std::string& name, const std::string& text) const {
  const fs::path p = fs::path(path_) / name;
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + p.string());
  return p.string();
}

size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace syncproof::testing
