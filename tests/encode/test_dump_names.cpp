// --dump-smt2 in a batch: each case's files carry its name, so two cases dumped into one
// directory keep their own files; a case whose properties never reached the solver leaves a
// file saying so.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "encode/check.h"
#include "lang/parse.h"
#include "tests/case_fixture.h"

using namespace syncproof;
namespace fs = std::filesystem;

namespace {

const std::string kCase = testing::kUavSrvCommands + R"(prove visible produce -> consume
)";

model::Case parsed(const std::string& file) {
  auto pr = lang::parse_case(file, kCase);
  REQUIRE(!pr.has_errors());
  return pr.c;
}

std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& f : fs::directory_iterator(dir)) out.insert(f.path().filename().string());
  return out;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("two cases dumped into one directory keep their own files") {
  auto dir = fs::temp_directory_path() / fmt::format("syncproof-test-dump-names-{}", ::getpid());
  fs::remove_all(dir);
  encode::CheckOptions opt;
  opt.order_proofs = false;
  opt.dump_dir = dir.string();
  encode::check_case(parsed("lib/a/first.sync"), opt);
  const auto one = files_in(dir);
  encode::check_case(parsed("lib/b/second.sync"), opt);
  const auto both = files_in(dir);
  REQUIRE(!one.empty());
  CHECK(both.size() == 2 * one.size());
  for (const std::string& f : one) CHECK(f.rfind("lib_a_first-", 0) == 0);
  size_t second = 0;
  for (const std::string& f : both) second += f.rfind("lib_b_second-", 0) == 0;
  CHECK(second == one.size());
  // Paths that make the same file name once sanitized are told apart by a hash.
  encode::check_case(parsed("lib/a first.sync"), opt);
  encode::check_case(parsed("lib/a_first.sync"), opt);
  CHECK(files_in(dir).size() == 4 * one.size());
  fs::remove_all(dir);
}

TEST_CASE("a case whose properties never reached the solver leaves a file saying so") {
  auto dir = fs::temp_directory_path() / fmt::format("syncproof-test-dump-none-{}", ::getpid());
  fs::remove_all(dir);
  encode::CheckOptions opt;  // order proofs on: the visibility proof needs no solver question
  opt.dump_dir = dir.string();
  auto r = encode::check_case(parsed("lib/quick.sync"), opt);
  REQUIRE(std::holds_alternative<properties::Proved>(r.results.at(0).verdict));
  const auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  const std::string name = *files.begin();
  CHECK(name.rfind("lib_quick-", 0) == 0);
  CHECK(name.find(".no-solver-query-1.smt2") == name.size() - 23);
  const std::string text = read(dir / name);
  CHECK(text.find("no question about lib/quick.sync reached the solver") != std::string::npos);
  CHECK(text.find("(exit)") != std::string::npos);
  fs::remove_all(dir);
}
