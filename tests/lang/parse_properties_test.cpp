// Every property form, parsed into the right AST values.
#include <doctest/doctest.h>

#include "lang_test_util.h"

namespace syncproof::lang {

using test::diags;
using test::only;
using test::with_prelude;

namespace {
constexpr std::string_view kCommands =
    "on acs:\n"
    "  produce: Dispatch writes grid as uav\n"
    "on gfx:\n"
    "  consume: Draw reads grid as srv, writes color as rt\n"
    "  blit: CopyResource reads color as copy-src, writes grid as copy-dst\n";
}  // namespace

TEST_CASE("prove, refute and check with every property kind") {
  ParseResult r = with_prelude(std::string(kCommands) +
                               "prove visible produce -> consume\n"
                               "refute visible consume -> blit on color missing GL2_WRITEBACK, "
                               "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, produce\n"
                               "check ordered produce -> blit\n"
                               "refute ordered produce -> consume missing IDLE\n"
                               "prove no-hazards\n"
                               "refute no-hazards missing VCACHE_INVALIDATE\n"
                               "prove deadlock-free\n");
  REQUIRE(diags(r) == "");
  const auto& p = r.c.properties;
  REQUIRE(p.size() == 7);
  CHECK(p[0].kind == model::PropertyKind::Visible);
  CHECK(p[0].expect == model::Expectation::Holds);
  CHECK(p[0].from == "produce");
  CHECK(p[0].to == "consume");
  CHECK(!p[0].resource);
  CHECK(p[0].missing.empty());
  CHECK(p[0].loc.line == 13);
  CHECK(p[0].loc.col == 1);
  CHECK(p[1].expect == model::Expectation::Violated);
  REQUIRE(p[1].resource);
  CHECK(*p[1].resource == 1);
  CHECK(p[1].missing == std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK",
                                                 "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH",
                                                 "produce"});
  CHECK(p[2].kind == model::PropertyKind::Ordered);
  CHECK(p[2].expect == model::Expectation::Report);
  CHECK(p[3].missing == std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_IDLE"});
  CHECK(p[4].kind == model::PropertyKind::NoHazards);
  CHECK(p[5].missing == std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE"});
  CHECK(p[6].kind == model::PropertyKind::DeadlockFree);
  CHECK(p[6].expect == model::Expectation::Holds);
}

TEST_CASE("property errors") {
  const std::string base(kCommands);
  CHECK(only(with_prelude(base + "prove visibel produce -> consume\n")) ==
        "13:7: error: unknown property 'visibel'; did you mean 'visible'?");
  CHECK(only(with_prelude(base + "prove\n")) ==
        "13:6: error: expected a property (visible, ordered, no-hazards or deadlock-free) after "
        "'prove', found end of line");
  CHECK(only(with_prelude(base + "prove visible produce -> consum\n")) ==
        "13:26: error: undeclared command label 'consum'; did you mean 'consume'?");
  CHECK(only(with_prelude(base + "prove visible produce => consume\n")) ==
        "13:23: error: unexpected character '='");
  CHECK(only(with_prelude(base + "prove visible consume -> produce\n")) ==
        "13:26: error: 'consume' writes nothing that 'produce' reads: the property is vacuous");
  CHECK(only(with_prelude(base + "prove visible produce -> consume on color\n")) ==
        "13:37: error: 'produce' does not write 'color'");
  CHECK(only(with_prelude(base + "prove visible produce -> consume on f\n")) ==
        "13:37: error: 'f' is a fence, not a resource (declared at line 6)");
  CHECK(only(with_prelude(base + "prove ordered produce -> consume on grid\n")) ==
        "13:34: error: unexpected 'on' after the 'ordered' property");
  CHECK(only(with_prelude(base + "check no-hazards missing IDLE\n")) ==
        "13:18: error: 'missing' names what a counterexample must blame: only 'refute' takes it");
  CHECK(only(with_prelude(base + "refute no-hazards missing IDLE VCACHE_INVALIDATE\n")) ==
        "13:32: error: unexpected 'VCACHE_INVALIDATE' after the 'no-hazards' property");
  CHECK(only(with_prelude(
            base + "prove visible produce -> later\non gfx:\n  later: Draw reads grid as srv\n")) ==
        "13:26: error: 'later' is used before its declaration at line 15");
}

}  // namespace syncproof::lang
