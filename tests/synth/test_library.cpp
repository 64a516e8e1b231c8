// Over the case library: every refuted twin ("# Twin of X.sync without FLAG") is fixed, with
// both engines, by a barrier that costs no more than the proved original's (model/COSTS.md), and
// --redundant finds nothing to remove from the library's minimal patterns it should not.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "encode/check.h"
#include "lang/parse.h"
#include "synth/fix.h"
#include "tools/synth_engines.h"

using namespace syncproof;
namespace fs = std::filesystem;

namespace {

struct Twin {
  fs::path twin, original;
};

std::vector<Twin> twins() {
  std::vector<Twin> out;
  const std::regex first(R"(^# Twin of (\S+\.sync))");
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SYNCPROOF_SOURCE_DIR) / "cases")) {
    if (e.path().extension() != ".sync" || e.path().string().find("/lint/") != std::string::npos)
      continue;
    std::ifstream in(e.path());
    std::string line;
    std::getline(in, line);
    std::smatch m;
    if (std::regex_search(line, m, first))
      out.push_back({e.path(), e.path().parent_path() / m[1].str()});
  }
  std::sort(out.begin(), out.end(), [](const Twin& a, const Twin& b) { return a.twin < b.twin; });
  return out;
}

// Twins that change a value, not a barrier (a wait for a value nothing writes, a label write
// of the wrong half): no edit of flags, syncs or waits on existing signals can fix them, and fix
// must say so.
const std::map<std::string, std::string> kUnfixable = {
    {"labels/two-halves-wrong-high.sync", "nothing ever writes a value that satisfies the wait"},
};

}  // namespace

TEST_CASE("on every refuted twin, fix restores a barrier no more expensive than the original") {
  const auto list = twins();
  REQUIRE(list.size() > 50);
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  opt.minimize = true;
  size_t fixed = 0, checked = 0;
  for (const Twin& t : list) {
    const std::string rel = fs::relative(t.twin, fs::path(SYNCPROOF_SOURCE_DIR) / "cases").string();
    CAPTURE(rel);
    REQUIRE_MESSAGE(fs::exists(t.original), t.original.string());
    const lang::ParseResult tw = lang::parse_case_file(t.twin.string());
    const lang::ParseResult orig = lang::parse_case_file(t.original.string());
    REQUIRE_FALSE(tw.has_errors());
    REQUIRE_FALSE(orig.has_errors());
    const properties::CaseResult now = encode::check_case(tw.c, smt);
    std::vector<size_t> goals, keep;
    synth::default_goals(tw.c, now, true, &goals, &keep);
    if (goals.empty()) continue;  // a twin whose point is a proof (`prove` both ways)
    ++checked;
    const synth::FixResult r = synth::fix_case(tw.c, goals, keep, opt);
    if (auto it = kUnfixable.find(rel); it != kUnfixable.end()) {
      CHECK(r.status == synth::FixResult::Status::Unfixable);
      CHECK_MESSAGE(r.why.find(it->second) != std::string::npos, r.why);
      continue;
    }
    REQUIRE_MESSAGE(r.status == synth::FixResult::Status::Fixed, r.why);
    ++fixed;
    // A twin under another profile or other assumptions than its original (profiles/) shows
    // that the original's barrier is not enough there: no cost bound, only a fix.
    if (tw.c.profile != orig.c.profile || tw.c.assumptions.size() != orig.c.assumptions.size())
      continue;
    const int after = costs.barrier(r.fixed), original = costs.barrier(orig.c);
    CHECK_MESSAGE(after <= original,
                  fmt::format("fixed barrier costs {}, the original {}", after, original));
    CHECK(after == r.before + r.cost);
  }
  CHECK(fixed + kUnfixable.size() == checked);
}
