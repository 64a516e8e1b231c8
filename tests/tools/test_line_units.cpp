// exec::line_units picks one unit per class of an obligation's line units, and the executor
// searches only those: every unit of the obligation's range must watch exactly what one of the
// picked units watches (exec::chain_watch: the operations covering it with their roles, the line
// mates and render back-end fills relevant to it), or a violation on that unit is never looked
// for. Compared unit by unit over the library and fixed-seed fuzz cases (whose textures have
// aliases over some of their blocks). Before line_units split by fills, the unit of the second
// block in cases/render-targets/rb-fill-of-one-block.sync watched a fill no picked unit did.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "exec/watch.h"
#include "lang/parse.h"
#include "properties/obligation.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

namespace {

bool same_watch(const exec::ChainWatch& a, const exec::ChainWatch& b) {
  auto mates = [](const exec::ChainWatch& w) {
    std::vector<std::pair<model::EventId, int>> v;
    for (const exec::ChainWatch::Mate& m : w.mates) v.push_back({m.arrive, m.steps});
    return v;
  };
  return a.a0 == b.a0 && a.b0 == b.b0 && a.ka == b.ka && a.kb == b.kb &&
         a.tie_violates == b.tie_violates && a.relevant == b.relevant && a.roles_a == b.roles_a &&
         a.roles_b == b.roles_b && a.joins_a == b.joins_a && a.gl2_up == b.gl2_up &&
         mates(a) == mates(b) && a.mate_roles == b.mate_roles && a.drops_dirty == b.drops_dirty &&
         a.rb_up == b.rb_up && a.fill_slot == b.fill_slot;
}

struct UnitTally {
  size_t obligations = 0, units = 0, split = 0, fill_split = 0;
};

// Range bounds of a chain obligation (exec/watch.cpp's shape).
std::pair<uint64_t, uint64_t> chain_range(const properties::Obligation& o) {
  switch (o.kind) {
    case properties::Obligation::Kind::Fresh:
      return {o.fresh.lo, o.fresh.hi};
    case properties::Obligation::Kind::WriteOrder:
      return {o.waw.lo, o.waw.hi};
    default:
      return {o.war.lo, o.war.hi};
  }
}

void compare_units(const std::string& file, const std::string& text, UnitTally* tally) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  for (const model::Property& prop : pr.c.properties) {
    const properties::Obligations obs = properties::obligations_for(p, prop);
    for (const properties::Obligation& o : obs.list) {
      if (!exec::is_chain(o)) continue;
      const auto [lo, hi] = chain_range(o);
      if (hi - lo > 4096) continue;  // a whole-memory range: too many units to walk
      const std::vector<uint64_t> picked = exec::line_units(p, o);
      REQUIRE_MESSAGE(!picked.empty(), file, ": ", o.name);
      std::vector<exec::ChainWatch> watches;
      for (uint64_t u : picked) {
        CHECK_MESSAGE((lo <= u && u <= hi), file, ": ", o.name);
        watches.push_back(exec::chain_watch(p, o, u));
      }
      ++tally->obligations;
      tally->split += picked.size() > 1;
      bool fills = false;
      for (const exec::ChainWatch& w : watches)
        fills = fills || w.fill_slot != watches.front().fill_slot;
      tally->fill_split += fills;
      for (uint64_t u = lo; u <= hi; ++u) {
        ++tally->units;
        const exec::ChainWatch w = exec::chain_watch(p, o, u);
        bool found = false;
        for (const exec::ChainWatch& x : watches) found = found || same_watch(w, x);
        if (!found)
          FAIL_CHECK(fmt::format("{}: {}: unit {} watches what no picked unit ({}) does", file,
                                 o.name, u, fmt::join(picked, ", ")));
      }
    }
  }
}

}  // namespace

TEST_CASE("line_units: a read's blocks split by a fill of one of them") {
  const std::string file =
      std::string(SYNCPROOF_SOURCE_DIR) + "/cases/render-targets/rb-fill-of-one-block.sync";
  std::string text;
  for (const auto& [f, t] : testing::library_cases())
    if (f == file) text = t;
  REQUIRE(!text.empty());
  UnitTally t;
  compare_units(file, text, &t);
  CHECK(t.fill_split == 1);
}

TEST_CASE("line_units: every unit of a range watches what a picked unit watches" *
          doctest::test_suite("full-size")) {
  UnitTally t;
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    compare_units(file, text, &t);
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(2000, 100)))
    compare_units(file, text, &t);
  MESSAGE(
      fmt::format("{} obligations, {} units; {} split into several classes, {} of them by "
                  "render back-end fills",
                  t.obligations, t.units, t.split, t.fill_split));
  CHECK(t.obligations > testing::scaled(1000));
  CHECK(t.split > testing::scaled(5));
}
