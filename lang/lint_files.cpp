#include "lang/lint_files.h"

#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <ostream>
#include <set>
#include <utility>

#include "lang/expect.h"
#include "lang/parse.h"

namespace syncproof::lang {

namespace fs = std::filesystem;

namespace {

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

using FileId = std::pair<dev_t, ino_t>;

// The recursive search of one directory argument.
class Search {
 public:
  explicit Search(std::vector<CaseInput>& out) : out_(out) {}

  // Returns whether any input (case or problem) was found under dir.
  bool run(const std::string& dir, const struct stat& st) {
    const size_t before = out_.size();
    walk(dir, st);
    std::sort(out_.begin() + static_cast<std::ptrdiff_t>(before), out_.end(),
              [](const CaseInput& a, const CaseInput& b) { return a.path < b.path; });
    return out_.size() > before;
  }

 private:
  void problem(const std::string& path, std::string what, FileProblem kind) {
    out_.push_back({path, display_path(path), std::move(what), kind});
  }

  void walk(const std::string& dir, const struct stat& st) {
    const FileId id{st.st_dev, st.st_ino};
    if (!searched_.insert(id).second) return;  // reached again through a link: searched once
    chain_.push_back({id, dir});
    std::error_code ec;
    std::vector<std::string> names;
    fs::directory_iterator it(dir, ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec))
      names.push_back(it->path().filename().string());
    if (ec) {
      problem(dir, "cannot read the directory: " + ec.message(), FileProblem::Unreadable);
      chain_.pop_back();
      return;
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) entry((fs::path(dir) / name).string(), name);
    chain_.pop_back();
  }

  void entry(const std::string& path, const std::string& name) {
    const bool is_case = fs::path(name).extension() == ".sync";
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {  // follows links
      const int e = errno;
      struct stat lst {};
      const bool link = ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode);
      if (e == ELOOP)
        problem(path,
                "symlink loop: the link cannot be resolved (too many levels of symbolic links)",
                FileProblem::Unreadable);
      else if (is_case || !link)  // a dangling link to something else is not a case
        problem(
            path,
            fmt::format("cannot read {}: {}", link ? "the link" : "the entry", std::strerror(e)),
            FileProblem::Unreadable);
      return;
    }
    if (S_ISDIR(st.st_mode)) {
      const FileId id{st.st_dev, st.st_ino};
      auto open =
          std::find_if(chain_.begin(), chain_.end(), [&](const auto& d) { return d.first == id; });
      if (open != chain_.end()) {
        problem(path,
                fmt::format("symlink loop: leads back to {}, which is being searched (not searched "
                            "again)",
                            display_path(open->second)),
                FileProblem::Unreadable);
        return;
      }
      walk(path, st);
      return;
    }
    // A *.sync that is not a regular file (FIFO, device, socket) is refused when read.
    if (is_case) out_.push_back({path, display_path(path), "", FileProblem::None});
  }

  std::vector<CaseInput>& out_;
  std::set<FileId> searched_;
  std::vector<std::pair<FileId, std::string>> chain_;  // the directories being searched
};

}  // namespace

std::vector<CaseInput> collect_case_files(const std::vector<std::string>& paths) {
  std::vector<CaseInput> out;
  for (const std::string& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      out.push_back({p, display_path(p), "", FileProblem::None});  // read_source says what is wrong
      continue;
    }
    if (!Search(out).run(p, st))
      out.push_back(
          {p, display_path(p), "no .sync files in the directory", FileProblem::Unreadable});
  }
  return out;
}

LintSummary lint_paths(const std::vector<std::string>& paths, bool expect_inline, std::ostream& out,
                       uint64_t max_file_size) {
  LintSummary s;
  for (const CaseInput& in : collect_case_files(paths)) {
    ++s.files;
    ParseResult r;
    if (in.problem.empty()) {
      try {
        r = parse_case_file(in.path, max_file_size);
      } catch (const std::exception& e) {  // bad_alloc included: name the file, go on
        ++s.internal;
        out << fmt::format("{}: internal error: {}\n", in.display, e.what());
        continue;
      }
    } else {
      r.c.file = in.display;
      Diagnostic d{model::Severity::Error, {}, in.problem, 1, true};
      d.rejected = in.kind == FileProblem::Rejected;
      r.diags.push_back(std::move(d));
    }
    if (r.unreadable()) {
      ++(r.rejected() ? s.rejected : s.unreadable);
      ++s.errors;
      out << render_all(r);
      continue;
    }
    s.errors += r.errors();
    s.warnings += r.warnings();
    if (!expect_inline) {
      out << render_all(r);
      continue;
    }
    const ExpectationReport rep = compare_expectations(r.c.lines, r.diags);
    if (!rep.ok()) {
      ++s.not_as_expected;
      out << render_report(rep, r.c.file);
    }
  }
  if (expect_inline) {
    out << fmt::format("{}, {} as expected, {} not as expected\n", plural(s.files, "file", "files"),
                       s.files - s.not_as_expected - s.unreadable - s.rejected - s.internal,
                       s.not_as_expected);
  } else {
    out << fmt::format("{}, {}, {}\n", plural(s.files, "file", "files"),
                       plural(s.errors, "error", "errors"),
                       plural(s.warnings, "warning", "warnings"));
  }
  return s;
}

}  // namespace syncproof::lang
