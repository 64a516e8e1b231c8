// No-hazards pairs from the access index (properties/access_index.h) against the scan of every
// pair: the same obligations in the same order, on random programs made to be hard for the index.
// Resources alias each other and label words sit inside them, so a write often covers only part
// of a later access (it shadows nothing then); accesses of every path meet on the same bytes, so a
// covering write of one path leaves another path's writes unshadowed; and fences and label waits
// order some commands across queues and leave others unordered (races).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "lang/parse.h"
#include "model/events.h"
#include "properties/obligation.h"

using namespace syncproof;

namespace {

struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  uint32_t pick(uint32_t n) { return static_cast<uint32_t>(rng() % n); }
  bool coin(uint32_t percent) { return pick(100) < percent; }
};

// labelled: the data commands get labels c0, c1, ... (the count is stored there).
std::string random_case(uint64_t seed, uint32_t* labelled = nullptr) {
  Gen g(seed);
  auto label = [&] { return labelled ? fmt::format("c{}: ", (*labelled)++) : std::string(); };
  std::string s = "queue gfx graphics\nqueue acs compute\nqueue cpu host\nfence f\n";
  for (int b = 0; b < 6; ++b) s += fmt::format("fence e{}\n", b);
  const uint32_t nres = 2 + g.pick(4);
  for (uint32_t r = 0; r < nres; ++r) {
    // In 0x10000..0x10800: most resources overlap another one.
    const uint32_t addr = 0x10000 + 0x40 * g.pick(24), size = 0x40 * (1 + g.pick(12));
    if (g.coin(25))
      s += fmt::format("texture t{} {:#x} {:#x}{}\n", r, addr, size,
                       g.coin(50) ? " compressed" : "");
    else
      s += fmt::format("buffer t{} {:#x} {:#x}\n", r, addr, size);
  }
  const uint32_t nlabels = 1 + g.pick(2);
  for (uint32_t l = 0; l < nlabels; ++l)
    s += fmt::format("label w{} {:#x}\n", l, 0x10000 + 8 * g.pick(0x100));
  auto res = [&] { return fmt::format("t{}", g.pick(nres)); };
  uint32_t signals = 0, value = 0;
  const char* queues[] = {"gfx", "acs", "cpu"};
  for (int block = 0; block < 6; ++block) {
    const uint32_t q = g.pick(3);
    s += fmt::format("on {}:\n", queues[q]);
    // Most blocks start after an earlier block, through a fence only that block signals, so
    // that much is ordered across queues.
    if (block > 0 && g.coin(80)) s += fmt::format("  Wait(e{}, 1)\n", g.pick(block));
    for (uint32_t i = 0, n = 1 + g.pick(5); i < n; ++i) {
      const uint32_t what = g.pick(10);
      if (what == 0) {
        s += fmt::format("  Signal(f, {})\n", ++signals);
      } else if (what == 1 && signals > 0) {
        s += fmt::format("  Wait(f, {})\n", 1 + g.pick(signals));
      } else if (what == 2 && q != 2) {
        s += fmt::format("  Write32BitValueBottomOfPipe2X(w{}, {}, NONE, NONE, NONE)\n",
                         g.pick(nlabels), ++value);
      } else if (what == 3 && q != 2 && value > 0) {
        s += fmt::format("  Wait32BitValueX(w{}, GREATER_EQUAL, {})\n", g.pick(nlabels),
                         1 + g.pick(value));
      } else if (q == 2) {
        s += fmt::format("  {}Host {} {} as host\n", label(), g.coin(50) ? "writes" : "reads",
                         res());
      } else if (what < 6) {
        s += fmt::format("  {}CopyBufferRegion reads {} as copy-src, writes {} as copy-dst\n",
                         label(), res(), res());
      } else if (q == 0 && what < 8) {
        const char* kinds[] = {"writes {} as rt", "reads {} as srv", "writes {} as depth",
                               "writes {} as uav", "reads {} as vertex"};
        s += fmt::format("  {}Draw {}, {}\n", label(),
                         fmt::format(fmt::runtime(kinds[g.pick(5)]), res()),
                         fmt::format(fmt::runtime(kinds[g.pick(5)]), res()));
      } else {
        s += fmt::format("  {}Dispatch {} {} as uav\n", label(), g.coin(60) ? "writes" : "reads",
                         res());
      }
    }
    s += fmt::format("  Signal(e{}, 1)\n", block);
  }
  s += "check no-hazards\n";
  return s;
}

}  // namespace

TEST_CASE("no-hazards from the access index: the scan's obligations, in its order" *
          doctest::test_suite("full-size")) {
  size_t cases = 0, obligations = 0, races = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    const std::string text = random_case(seed);
    auto pr = lang::parse_case(fmt::format("index-{}.sync", seed), text);
    if (pr.has_errors()) continue;  // e.g. a texture kind on a buffer: not what is tested here
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    const auto& prop = pr.c.properties.at(0);
    const auto indexed = properties::obligations_for(p, prop);
    const auto scanned = properties::obligations_for(p, prop, true);
    ++cases;
    CAPTURE(text);
    if (indexed.list.size() != scanned.list.size()) {
      std::string missing;
      for (const auto& o : scanned.list)
        if (std::none_of(indexed.list.begin(), indexed.list.end(),
                         [&](const auto& i) { return i.name == o.name; }))
          missing += o.name + "\n";
      CAPTURE(missing);
      REQUIRE(indexed.list.size() == scanned.list.size());
    }
    CHECK(indexed.relies == scanned.relies);
    for (size_t i = 0; i < indexed.list.size(); ++i) {
      REQUIRE(indexed.list[i].name == scanned.list[i].name);
      REQUIRE(indexed.list[i].kind == scanned.list[i].kind);
      races += indexed.list[i].kind == properties::Obligation::Kind::Race;
    }
    obligations += indexed.list.size();
  }
  MESSAGE(fmt::format("{} cases, {} obligations, {} of them races", cases, obligations, races));
  // The comparison means something: most programs parse, and have ordered pairs and races.
  CHECK(cases > 1500);
  CHECK(obligations > 10 * cases);
  CHECK(races > 0);
  CHECK(races < obligations / 2);
}

// visible's older writes (obligation.cpp older_writes) find their shadowing writes through the
// index too: the same lists as the scan of every access, for `visible` between every two labelled
// commands (made here, not in the text: the linter rejects a vacuous one).
TEST_CASE("visible from the access index: the scan's obligations, in its order" *
          doctest::test_suite("full-size")) {
  size_t properties = 0, older = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    uint32_t labelled = 0;
    const std::string text = random_case(seed, &labelled);
    auto pr = lang::parse_case(fmt::format("visible-{}.sync", seed), text);
    if (pr.has_errors()) continue;
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    CAPTURE(text);
    // The engines keep one program's tables across its properties: every list made from them is
    // the one made from fresh tables, whatever was asked before.
    properties::ObligationTables tables(p);
    auto same = [](const properties::Obligations& x, const properties::Obligations& y) {
      CHECK(x.error == y.error);
      CHECK(x.relies == y.relies);
      REQUIRE(x.list.size() == y.list.size());
      for (size_t i = 0; i < x.list.size(); ++i) {
        REQUIRE(x.list[i].name == y.list[i].name);
        REQUIRE(x.list[i].kind == y.list[i].kind);
        CHECK(x.list[i].fresh.mates.size() == y.list[i].fresh.mates.size());
        CHECK(x.list[i].fresh.steps.size() == y.list[i].fresh.steps.size());
      }
    };
    for (uint32_t a = 0; a < labelled; ++a)
      for (uint32_t b = 0; b < labelled; ++b) {
        model::Property prop;
        prop.kind = model::PropertyKind::Visible;
        prop.from = fmt::format("c{}", a), prop.to = fmt::format("c{}", b);
        const auto indexed = properties::obligations_for(p, prop);
        const auto scanned = properties::obligations_for(p, prop, true);
        CAPTURE(prop.from);
        CAPTURE(prop.to);
        same(properties::obligations_for(p, prop, false, &tables), indexed);
        same(properties::obligations_for(p, prop, true, &tables), scanned);
        CHECK(indexed.error == scanned.error);
        CHECK(indexed.relies == scanned.relies);
        REQUIRE(indexed.list.size() == scanned.list.size());
        for (size_t i = 0; i < indexed.list.size(); ++i) {
          REQUIRE(indexed.list[i].name == scanned.list[i].name);
          older += indexed.list[i].kind == properties::Obligation::Kind::WriteOrder;
        }
        properties += indexed.error.empty();
      }
    model::Property hazards;
    hazards.kind = model::PropertyKind::NoHazards;
    same(properties::obligations_for(p, hazards, false, &tables),
         properties::obligations_for(p, hazards));
  }
  MESSAGE(fmt::format("{} visible properties, {} older-write obligations", properties, older));
  CHECK(properties > 2000);
  CHECK(older > 1000);
}

// The same where the lists rest on a value assumption (the wait's EQUAL 1 passes the initial
// word unless it is 0: A-INITIAL-ZERO), so that obligations_for also makes the list without the
// waits that rest on it, from the tables for names only and the API order without them: asked in
// either order, with one program's tables kept, each property's list is the fresh one.
TEST_CASE("obligations from kept tables: the lists from fresh ones, value assumptions too") {
  auto pr = lang::parse_case("kept-tables.sync", R"(queue gfx graphics
queue acs compute
buffer lights 0x10000 0x4000
label ready 0x300000
on acs:
  produce: Dispatch writes lights as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  Write32BitValueBottomOfPipe2X(ready, 1, NONE, NONE, NONE)
on gfx:
  Wait32BitValueX(ready, EQUAL, 1)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads lights as srv
  rewrite: Dispatch writes lights as uav
prove visible produce -> consume
prove no-hazards
)");
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  const auto& props = pr.c.properties;
  REQUIRE(props.size() == 2);
  std::vector<properties::Obligations> fresh;
  for (const auto& prop : props) fresh.push_back(properties::obligations_for(p, prop));
  for (const auto& f : fresh) {
    CHECK(f.error.empty());
    CHECK(!f.list.empty());
  }
  // Without the wait, the no-hazards list has a race for an ordered pair: it rests on
  // A-INITIAL-ZERO (the second list was made, and differs).
  CHECK(fresh[1].relies != 0);
  // As the engines ask: in order, the tables let go after the last (no-hazards).
  properties::PropertyObligations in_order(p, props);
  for (size_t i = 0; i < props.size(); ++i) {
    const auto got = in_order.of(i);
    CHECK(got.relies == fresh[i].relies);
    REQUIRE(got.list.size() == fresh[i].list.size());
    for (size_t j = 0; j < got.list.size(); ++j) CHECK(got.list[j].name == fresh[i].list[j].name);
  }
  for (const bool reversed : {false, true}) {
    CAPTURE(reversed);
    properties::ObligationTables tables(p);
    for (size_t k = 0; k < props.size(); ++k) {
      const size_t i = reversed ? props.size() - 1 - k : k;
      const auto kept = properties::obligations_for(p, props[i], false, &tables);
      CAPTURE(i);
      CHECK(kept.relies == fresh[i].relies);
      REQUIRE(kept.list.size() == fresh[i].list.size());
      for (size_t j = 0; j < kept.list.size(); ++j) {
        CHECK(kept.list[j].name == fresh[i].list[j].name);
        CHECK(kept.list[j].fresh.mates.size() == fresh[i].list[j].fresh.mates.size());
      }
    }
  }
}
