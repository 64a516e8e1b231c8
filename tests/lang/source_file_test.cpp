// Reading case files (lang/source_file.h): sizes, escaping of names, what is refused.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "lang/parse.h"
#include "lang/source_file.h"

using namespace syncproof::lang;

TEST_CASE("display_path escapes what could split a line or drive the terminal") {
  CHECK(display_path("cases/a-b_c.sync") == "cases/a-b_c.sync");
  CHECK(display_path("caf\xc3\xa9/\xe6\x97\xa5.sync") == "caf\xc3\xa9/\xe6\x97\xa5.sync");  // UTF-8
  CHECK(display_path("a\nb") == "a\\nb");
  CHECK(display_path("a\rb\tc") == "a\\rb\\tc");
  CHECK(display_path("x\x1b[2Jy") == "x\\x1B[2Jy");
  CHECK(display_path(std::string("n\0l", 3)) == "n\\x00l");
  CHECK(display_path("del\x7f") == "del\\x7F");
  CHECK(display_path("bad\xff\xfe") == "bad\\xFF\\xFE");  // invalid UTF-8
  CHECK(display_path("c1\xc2\x9b") == "c1\\u{009B}");     // C1 CSI
  CHECK(display_path("rtl\xe2\x80\xae"
                     "cod.sync") == "rtl\\u{202E}cod.sync");  // bidi override
  CHECK(display_path("back\\slash") == "back\\\\slash");
}

TEST_CASE("format_size") {
  CHECK(format_size(0) == "0 bytes");
  CHECK(format_size(1) == "1 byte");
  CHECK(format_size(1023) == "1023 bytes");
  CHECK(format_size(1024) == "1 KiB");
  CHECK(format_size(1536) == "1.5 KiB");
  CHECK(format_size(uint64_t{64} << 20) == "64 MiB");
  CHECK(format_size(uint64_t{3} << 30) == "3 GiB");
}

namespace {
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    char tmpl[] = "/tmp/syncproof-src-XXXXXX";
    int fd = ::mkstemp(tmpl);
    REQUIRE(fd >= 0);
    ::close(fd);
    path = tmpl;
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};
}  // namespace

TEST_CASE("read_source: within the limit it reads everything and over it nothing") {
  TempFile f(std::string(5000, 'x'));
  SourceText s = read_source(f.path, 5000);
  CHECK(s.problem == FileProblem::None);
  CHECK(s.text.size() == 5000);
  s = read_source(f.path, 4999);
  CHECK(s.problem == FileProblem::Rejected);
  CHECK(s.text.empty());
  CHECK(s.message == "is 4.9 KiB (5000 bytes), over the 4.9 KiB limit (--max-file-size): not read");
}

TEST_CASE("read_source: missing files and directories are unreadable, FIFOs are refused") {
  SourceText s = read_source("/nonexistent/dir/x.sync");
  CHECK(s.problem == FileProblem::Unreadable);
  CHECK(s.message == "cannot read the file: No such file or directory");
  s = read_source("/tmp");
  CHECK(s.problem == FileProblem::Unreadable);
  CHECK(s.message == "cannot read the file: is a directory");
  s = read_source("/dev/null");
  CHECK(s.problem == FileProblem::Rejected);
  CHECK(s.message == "is a character device, not a case file: not read");
  const std::string fifo = "/tmp/syncproof-fifo-" + std::to_string(::getpid()) + ".sync";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  s = read_source(fifo);  // returns at once: a FIFO is never opened
  CHECK(s.problem == FileProblem::Rejected);
  CHECK(s.message == "is a FIFO (named pipe), not a case file: not read");
  ParseResult r = parse_case_file(fifo);
  CHECK(r.unreadable());
  CHECK(r.rejected());
  CHECK(render_all(r) == fifo + ": error: is a FIFO (named pipe), not a case file: not read\n");
  std::remove(fifo.c_str());
}
