// SMT-LIB dumps: one file per check, read back by the z3 (and cvc5) binaries with the same answer.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "solver/smtlib.h"
#include "solver/solver.h"

namespace sv = syncproof::solver;
namespace fs = std::filesystem;
using sv::Status;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("syncproof-dump-" + std::to_string(getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

bool have(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// The first line `cmd file` prints ("sat", "unsat", ...).
std::string first_answer(const std::string& cmd, const fs::path& file) {
  std::string line;
  if (FILE* p = popen((cmd + " '" + file.string() + "' 2>&1").c_str(), "r")) {
    char buf[4096];
    if (fgets(buf, sizeof buf, p)) line = buf;
    pclose(p);
  }
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string slurp(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("every check writes <dir>/<query>-<n>.smt2 that z3 and cvc5 answer alike") {
  TempDir dir;
  sv::Context cx(sv::ContextOptions{.dump_dir = dir.path.string()});
  sv::Solver s(cx, "visible/produce->consume/line");
  // Names that need care: a reserved word, a leading digit, Z3's let-name shapes.
  sv::Term me = cx.int_var("t.gfx.12.me"), kw = cx.int_var("and"), dig = cx.int_var("12.x");
  sv::Term let = cx.int_var("a!1"), p = cx.bool_var("p"), q = cx.bool_var("q|x");
  sv::Term shared = cx.add(me, let);
  s.add(cx.le(cx.sub(me, kw), cx.int_val(-3)));
  s.add(cx.lt(cx.ite(cx.gt(shared, cx.int_val(3)), shared, cx.sub(cx.int_val(0), shared)),
              cx.sub(dig, cx.int_val(-5))));
  s.push();
  s.add(cx.implies(p, cx.ge(kw, cx.int_val(100))));
  sv::Term big = cx.ge(me, cx.int_val(200));  // not a literal: dumped through a named proxy

  std::vector<std::pair<std::vector<sv::Term>, Status>> checks = {
      {{}, Status::Sat},
      {{p, cx.lnot(q)}, Status::Sat},
      {{big, cx.lnot(p), cx.lt(kw, cx.int_val(150))}, Status::Unsat},  // kw >= me + 3 >= 203
  };
  for (auto& [asms, want] : checks) CHECK(s.check(asms).status == want);
  s.pop();
  s.add(cx.distinct(std::vector<sv::Term>{me, kw, dig}));
  s.add(cx.eq(me, kw));
  CHECK(s.check().status == Status::Unsat);
  CHECK(cx.stats().dumps == 4);

  std::vector<Status> expected = {Status::Sat, Status::Sat, Status::Unsat, Status::Unsat};
  for (size_t i = 0; i < expected.size(); ++i) {
    fs::path file = dir.path / ("visible_produce-_consume_line-" + std::to_string(i + 1) + ".smt2");
    REQUIRE(fs::exists(file));
    std::string text = slurp(file);
    CHECK(text.find("(set-logic QF_LIA)") != std::string::npos);
    CHECK(text.find("(exit)") != std::string::npos);
    CHECK(text.find(std::string("(set-info :status ") + std::string(sv::to_string(expected[i]))) !=
          std::string::npos);
    if (have("z3")) {
      CHECK_MESSAGE(first_answer("z3", file) == sv::to_string(expected[i]), text);
    } else {
      MESSAGE("z3 binary not found: read-back skipped");
    }
    if (have("cvc5"))
      CHECK_MESSAGE(first_answer("cvc5 --lang smt2", file) == sv::to_string(expected[i]), text);
  }
  std::string assuming = slurp(dir.path / "visible_produce-_consume_line-3.smt2");
  CHECK(assuming.find("(check-sat-assuming (assume!0 (not p) assume!2))") != std::string::npos);
  CHECK(assuming.find("(declare-fun _and () Int)") != std::string::npos);
  CHECK(assuming.find("(declare-fun _12.x () Int)") != std::string::npos);
}

TEST_CASE("an unknown answer is dumped with (get-info :reason-unknown)") {
  TempDir dir;
  sv::Context cx(sv::ContextOptions{.dump_dir = dir.path.string()});
  sv::Solver a(cx, "q"), b(cx, "q");  // same query name: numbered on, never overwritten
  sv::Term x = cx.int_var("x");
  a.add(cx.ge(x, cx.int_val(1)));
  b.add(cx.le(x, cx.int_val(0)));
  CHECK(a.check().status == Status::Sat);
  CHECK(b.check().status == Status::Sat);
  CHECK(fs::exists(dir.path / "q-1.smt2"));
  CHECK(fs::exists(dir.path / "q-2.smt2"));

  sv::SmtlibQuery q;
  q.query = "line1\nline2";
  q.index = 3;
  q.reason = "timeout";
  q.declarations = {"(declare-fun x () Int)"};
  q.assertions = {"(<= x 1)"};
  q.assumptions = {{"p", true}, {"(not r)", true}, {"(<= x 0)", false}};
  std::string text = sv::render_smtlib(q);
  CHECK(text.find("; syncproof solver query \"line1 line2\", check 3\n") == 0);
  CHECK(text.find("; z3 answered unknown (timeout)") != std::string::npos);
  CHECK(text.find("(set-info :status unknown)\n(set-logic QF_LIA)\n") != std::string::npos);
  CHECK(text.find("(declare-fun x () Int)\n(declare-fun assume!2 () Bool)\n") != std::string::npos);
  CHECK(text.find("(assert (<= x 1))\n(assert (= assume!2 (<= x 0)))\n") != std::string::npos);
  CHECK(text.find(
            "(check-sat-assuming (p (not r) assume!2))\n(get-info :reason-unknown)\n(exit)\n") !=
        std::string::npos);
}
