// properties::MateList holds a read's line mates as runs of shared index lists: indexing and
// iteration (both ways) must see the runs as one list, and a Fresh obligation's list must hold
// exactly the writes through GL2 to the read's GL2 lines (of the plane the data is in) but those
// of the write's own event (R-GL2-INV-KEEPS-DIRTY, properties/obligation.h).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "lang/parse.h"
#include "properties/obligation.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

TEST_CASE("MateList: runs of shared lists read as one list") {
  std::vector<properties::LineMate> table;
  for (uint32_t i = 0; i < 10; ++i) table.push_back({i, i, i, {}});
  auto shared = std::make_shared<const std::vector<properties::LineMate>>(table);
  auto list_a = std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{9, 8, 7, 6});
  auto list_b = std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{1, 3, 5});
  properties::MateList l(shared);
  CHECK(l.empty());
  CHECK(l.begin() == l.end());
  l.append(list_a, 1, 3);  // 8 7
  l.append(list_b, 0, 0);  // nothing
  l.append(list_b, 0, 3);  // 1 3 5
  l.append(list_a, 3, 4);  // 6
  const std::vector<uint32_t> want = {8, 7, 1, 3, 5, 6};
  REQUIRE(l.size() == want.size());
  std::vector<uint32_t> indexed, forward, backward;
  for (size_t i = 0; i < l.size(); ++i) indexed.push_back(l[i].access);
  for (const properties::LineMate& m : l) forward.push_back(m.access);
  for (auto it = l.rbegin(); it != l.rend(); ++it) backward.push_back(it->access);
  CHECK(indexed == want);
  CHECK(forward == want);
  std::reverse(backward.begin(), backward.end());
  CHECK(backward == want);
  // Steps across run boundaries, both ways.
  auto it = l.begin();
  ++it, ++it;
  CHECK(it->access == 1);
  --it;
  CHECK(it->access == 7);
  auto end = l.end();
  --end;
  CHECK(end->access == 6);
  --end;
  CHECK(end->access == 5);
}

namespace {

size_t check_mates(const std::string& file, const std::string& text) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  size_t checked = 0;
  for (const model::Property& prop : pr.c.properties)
    for (const properties::Obligation& o : properties::obligations_for(p, prop).list) {
      if (o.kind != properties::Obligation::Kind::Fresh || o.fresh.gl2_up < 0) continue;
      const model::MemAccess& w = p.accesses[o.fresh.write];
      const model::MemAccess& r = p.accesses[o.fresh.read];
      const uint64_t blo = std::max(w.blo, r.blo), bhi = std::min(w.bhi, r.bhi);
      const uint64_t line_lo = blo / model::kLineBytes * model::kLineBytes;
      const uint64_t line_hi = bhi / model::kLineBytes * model::kLineBytes + model::kLineBytes - 1;
      std::vector<uint32_t> want, got;
      for (uint32_t a = 0; a < p.accesses.size(); ++a) {
        const model::MemAccess& x = p.accesses[a];
        if (x.write && x.path.index_of(model::Level::Gl2) >= 0 && x.plane == w.plane &&
            x.blo <= line_hi && line_lo <= x.bhi && x.ev != w.ev)
          want.push_back(a);
      }
      for (const properties::LineMate& m : o.fresh.mates) got.push_back(m.access);
      std::sort(got.begin(), got.end());
      CHECK_MESSAGE(got == want, file, ": ", o.name);
      ++checked;
    }
  return checked;
}

}  // namespace

TEST_CASE("MateList: a read's mates are the other writes through GL2 to its lines" *
          doctest::test_suite("full-size")) {
  size_t checked = 0;
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    checked += check_mates(file, text);
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(500, 300)))
    checked += check_mates(file, text);
  MESSAGE(fmt::format("{} obligations with line mates", checked));
  CHECK(checked > testing::scaled(200));
}
