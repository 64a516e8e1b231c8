// Which flags each API and queue accepts (seeds 000-004), with the exact problem messages the
// linter shows.
#include <doctest/doctest.h>

#include <string>

#include "model/validity.h"
#include "tests/line_lists.h"

using namespace syncproof::model;
using namespace syncproof::model::sync;

namespace {

using Api = SyncApi;
using Q = QueueType;

constexpr Api kApis[] = {Api::SyncTopOfPipeX,
                         Api::SyncBottomOfPipeX,
                         Api::Write32BitValueBottomOfPipe2X,
                         Api::Write64BitValueBottomOfPipe2X,
                         Api::Signal2X,
                         Api::WaitX};

// "E: message" / "W: message" per problem, so failures print readably.
std::vector<std::string> text(const std::vector<FlagProblem>& ps) {
  std::vector<std::string> out;
  for (const auto& p : ps)
    out.push_back((p.severity == Severity::Error ? "E: " : "W: ") + p.message);
  return out;
}

std::vector<std::string> check(uint32_t v, Api api, Q q, bool whole = false,
                               bool spelled_all = false) {
  SyncFlagContext ctx{.api = api, .queue = q, .whole_memory = whole};
  ctx.spelled_icache_margin = ctx.spelled_gl1_margin = ctx.spelled_gl2_margin = spelled_all;
  return text(check_sync_flags(v, ctx));
}

ControlFlags cf(std::initializer_list<ControlFlag> fs) {
  ControlFlags c;
  for (ControlFlag f : fs) c.set(f);
  return c;
}

using V = std::vector<std::string>;
const std::string kWhole =
    " with the whole-memory range (BaseAddress 0, SizeInBytes D3D12XBOX_FLUSH_RANGE_ALL)";

}  // namespace

TEST_CASE("names of queue types and APIs") {
  CHECK(to_string(Q::Graphics) == "graphics");
  CHECK(to_string(Q::Compute) == "compute");
  CHECK(to_string(Q::Host) == "host");
  CHECK(to_string(Api::SyncTopOfPipeX) == "SyncTopOfPipeX");
  CHECK(to_string(Api::SyncBottomOfPipeX) == "SyncBottomOfPipeX");
  CHECK(to_string(Api::Write32BitValueBottomOfPipe2X) == "Write32BitValueBottomOfPipe2X");
  CHECK(to_string(Api::Write64BitValueBottomOfPipe2X) == "Write64BitValueBottomOfPipe2X");
  CHECK(to_string(Api::Signal2X) == "Signal2X");
  CHECK(to_string(Api::WaitX) == "WaitX");
  CHECK(is_bop_write(Api::Write32BitValueBottomOfPipe2X));
  CHECK(is_bop_write(Api::Write64BitValueBottomOfPipe2X));
  CHECK(!is_bop_write(Api::SyncBottomOfPipeX));
  CHECK(!is_bop_write(Api::Signal2X));
}

TEST_CASE("accepted sync flags per API and queue type") {
  // Masks from 000 (values as the seed's ORs evaluate), + SYNC_CPDMA for both Sync*OfPipeX
  // (listed in 001's and 004's operation order), + PFP_SYNC_ME for SyncBottomOfPipeX on graphics
  // (listed last in 004's order); 002's seven flags for the BOP writes.
  CHECK(accepted_sync_flags(Api::SyncTopOfPipeX, Q::Graphics) == (0xE700DFFFu | 0x20000u));
  CHECK(accepted_sync_flags(Api::SyncTopOfPipeX, Q::Compute) == (0x8000DFBFu | 0x20000u));
  CHECK(accepted_sync_flags(Api::SyncBottomOfPipeX, Q::Graphics) ==
        (0x98FCDF30u | 0x20000u | 0x40u));
  CHECK(accepted_sync_flags(Api::SyncBottomOfPipeX, Q::Compute) == (0x8010DF30u | 0x20000u));
  const uint32_t bop_write = 0x100 | 0x20 | 0x10 | 0x200 | 0x4000 | 0x8000 | 0x800;
  for (Q q : {Q::Graphics, Q::Compute}) {
    CHECK(accepted_sync_flags(Api::Write32BitValueBottomOfPipe2X, q) == bop_write);
    CHECK(accepted_sync_flags(Api::Write64BitValueBottomOfPipe2X, q) == bop_write);
  }
  CHECK(accepted_sync_flags(Api::Signal2X, Q::Graphics) == 0x98FCDF30u);
  CHECK(accepted_sync_flags(Api::Signal2X, Q::Compute) == 0x8010DF30u);
  CHECK(accepted_sync_flags(Api::WaitX, Q::Graphics) == 0xE700DFFFu);
  CHECK(accepted_sync_flags(Api::WaitX, Q::Compute) == 0x8000DFBFu);
  for (Api api : kApis) CHECK(accepted_sync_flags(api, Q::Host) == 0);
}

TEST_CASE("every single sync bit: an error exactly when the API/queue does not accept it") {
  for (const FlagDef& d : all_flags()) {
    if (d.family != FlagFamily::Sync || d.kind != FlagKind::Bit || *d.value == 0) continue;
    for (Api api : kApis) {
      for (Q q : {Q::Graphics, Q::Compute}) {
        CAPTURE(d.name);
        CAPTURE(to_string(api));
        CAPTURE(to_string(q));
        const auto ps = check_sync_flags(*d.value, {.api = api, .queue = q});
        const bool accepted = (accepted_sync_flags(api, q) & *d.value) != 0;
        CHECK(ps.size() == (accepted ? 0u : 1u));
        if (!accepted) {
          CHECK(ps[0].severity == Severity::Error);
          CHECK(ps[0].bits == *d.value);
          CHECK(ps[0].message.starts_with(std::string(d.name) + " is not accepted "));
        }
      }
    }
  }
}

TEST_CASE("flags an API does not accept") {
  CHECK(check(kCsPartialFlush, Api::SyncTopOfPipeX, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX"});
  CHECK(check(kKcacheInvalidate, Api::SyncBottomOfPipeX, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE is not accepted by SyncBottomOfPipeX"});
  CHECK(check(kIcacheInvalidate, Api::Write64BitValueBottomOfPipe2X, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE is not accepted by "
          "Write64BitValueBottomOfPipe2X"});
  // A field is named by the value it holds, even when only one of its bits is refused.
  CHECK(check(kGl2Margin | kGl2Invalidate, Api::Write32BitValueBottomOfPipe2X, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_GL2_MARGIN is not accepted by Write32BitValueBottomOfPipe2X"});
  const auto ps = check_sync_flags(
      kGl2Range | kGl2Writeback, {.api = Api::Write64BitValueBottomOfPipe2X, .queue = Q::Compute});
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].message ==
        "D3D12XBOX_SYNC_FLAG_GL2_RANGE is not accepted by Write64BitValueBottomOfPipe2X");
  CHECK(ps[0].bits == kGl2Range);
  // SYNC_CPDMA: accepted by both Sync*OfPipeX on both queues, by nothing else.
  for (Q q : {Q::Graphics, Q::Compute}) {
    CHECK(check(kSyncCpdma, Api::SyncTopOfPipeX, q).empty());
    CHECK(check(kSyncCpdma, Api::SyncBottomOfPipeX, q).empty());
  }
  CHECK(check(kSyncCpdma, Api::Write64BitValueBottomOfPipe2X, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_SYNC_CPDMA is not accepted by Write64BitValueBottomOfPipe2X"});
  CHECK(check(kSyncCpdma, Api::Signal2X, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_SYNC_CPDMA is not accepted by Signal2X"});
  CHECK(check(kCsPartialFlush, Api::WaitX, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by WaitX"});
  CHECK(check(kCsPartialFlush | kIdle, Api::Signal2X, Q::Graphics).empty());
  // Several problems come in header order.
  CHECK(check(kCsPartialFlush | kColorBlockDataFlush, Api::SyncTopOfPipeX, Q::Graphics) ==
        V{"E: D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH is not accepted by SyncTopOfPipeX",
          "E: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX"});
  // Not a queue problem when the graphics queue refuses it too.
  CHECK(check(kColorBlockDataFlush, Api::SyncTopOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH is not accepted by SyncTopOfPipeX"});
}

TEST_CASE("graphics-only flags on a compute queue say what the compute queue lacks") {
  const std::string top =
      " is not accepted on a compute queue (SyncTopOfPipeX accepts "
      "D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK there): ";
  const std::string bop =
      " is not accepted on a compute queue (SyncBottomOfPipeX accepts "
      "D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK there): ";
  CHECK(check(kPfpSyncMe, Api::SyncTopOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME" + top + "a compute queue has no PFP"});
  CHECK(check(kPfpSyncMe, Api::SyncBottomOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME" + bop + "a compute queue has no PFP"});
  CHECK(check(kPfpSyncMe, Api::SyncBottomOfPipeX, Q::Graphics).empty());
  CHECK(
      check(kBaseCoherency, Api::SyncTopOfPipeX, Q::Compute) ==
      V{"E: D3D12XBOX_SYNC_FLAG_BASE_COHERENCY" + top + "a compute queue has no graphics context"});
  for (uint32_t rb :
       {kColorBlockCoherency, kDepthBlockCoherency, kColorBlockInvalidate, kDepthBlockInvalidate}) {
    const auto ps = check(rb, Api::SyncTopOfPipeX, Q::Compute);
    REQUIRE(ps.size() == 1);
    CHECK(ps[0].ends_with(top + "a compute queue has no render back-ends (color/depth blocks)"));
  }
  for (uint32_t rb :
       {kColorBlockDataFlush, kDepthBlockDataFlush, kColorBlockMetaFlush, kDepthBlockMetaFlush}) {
    const auto ps = check(rb, Api::SyncBottomOfPipeX, Q::Compute);
    REQUIRE(ps.size() == 1);
    CHECK(ps[0].ends_with(bop + "a compute queue has no render back-ends (color/depth blocks)"));
  }
  CHECK(check(kVsPartialFlush, Api::SyncBottomOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH" + bop + "a compute queue has no VS/PS stage"});
  CHECK(check(kPsPartialFlush, Api::SyncBottomOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH" + bop + "a compute queue has no VS/PS stage"});
  CHECK(check(kStreamoutFlush, Api::SyncBottomOfPipeX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH" + bop +
          "a compute queue has no VS/PS stage and so no stream-out"});
  CHECK(check(kPsPartialFlush, Api::Signal2X, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH is not accepted on a compute queue (Signal2X "
          "accepts D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK there): a compute queue has no VS/PS "
          "stage"});
  CHECK(check(kPfpSyncMe, Api::WaitX, Q::Compute) ==
        V{"E: D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME is not accepted on a compute queue (WaitX accepts "
          "D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK there): a compute queue has no PFP"});
}

TEST_CASE("each mask is accepted by its own API, the BOP writes take their seven flags") {
  CHECK(check(kTopMask, Api::SyncTopOfPipeX, Q::Graphics, false, true).empty());
  CHECK(check(kTopComputeMask, Api::SyncTopOfPipeX, Q::Compute, false, true).empty());
  CHECK(check(kBopMask, Api::SyncBottomOfPipeX, Q::Graphics, false, true).empty());
  CHECK(check(kBopComputeMask, Api::SyncBottomOfPipeX, Q::Compute, false, true).empty());
  for (Q q : {Q::Graphics, Q::Compute}) {
    CHECK(check(kBopWriteAccepted, Api::Write32BitValueBottomOfPipe2X, q, true).empty());
    CHECK(check(kBopWriteAccepted, Api::Write64BitValueBottomOfPipe2X, q, true).empty());
  }
  for (Api api : kApis) {
    CHECK(check(kNone, api, Q::Graphics, true).empty());
    CHECK(check(kNone, api, Q::Compute, true).empty());
    CHECK(check(kNone, api, Q::Host, true).empty());
  }
}

TEST_CASE("unknown bits and the reserved GL1 selector are errors") {
  const auto ps =
      check_sync_flags(0x2000 | kIdle, {.api = Api::SyncTopOfPipeX, .queue = Q::Graphics});
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].severity == Severity::Error);
  CHECK(ps[0].bits == 0x2000);
  CHECK(ps[0].message == "unknown bits 0x00002000 (not a D3D12XBOX_SYNC_FLAGS constant)");
  CHECK(check(0x12000, Api::Write64BitValueBottomOfPipe2X, Q::Compute) ==
        V{"E: unknown bits 0x00012000 (not a D3D12XBOX_SYNC_FLAGS constant)"});
  const V reserved = {
      "E: GL1 range selector value 1 (bit 0x00000004 without 0x00000008) is reserved: no "
      "D3D12XBOX_SYNC_FLAGS constant has this value"};
  CHECK(check(kGl1Invalidate | 0x4, Api::SyncTopOfPipeX, Q::Graphics, true) == reserved);
  CHECK(check(0x4, Api::SyncTopOfPipeX, Q::Graphics) == reserved);
  CHECK(check(0x4, Api::SyncBottomOfPipeX, Q::Graphics) == reserved);
  CHECK(check_sync_flags(0x4, {.api = Api::SyncTopOfPipeX, .queue = Q::Graphics})[0].bits == 0x4);
}

TEST_CASE("MARGIN reached by OR-ing two selectors is a warning unless MARGIN was spelled") {
  CHECK(
      check(kIcacheInvalidate | kIcacheRange, Api::SyncTopOfPipeX, Q::Graphics) ==
      V{"W: D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_ICACHE_RANGE is the value "
        "of D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN: only the first and last cache line of the range "
        "are invalidated"});
  CHECK(check(kIcacheMargin, Api::SyncTopOfPipeX, Q::Graphics, false, true).empty());
  CHECK(check(kGl2Volatile | kGl2Range | kGl2Invalidate, Api::SyncBottomOfPipeX, Q::Graphics) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_VOLATILE | D3D12XBOX_SYNC_FLAG_GL2_RANGE is the value of "
          "D3D12XBOX_SYNC_FLAG_GL2_MARGIN: only the first and last cache line of the range are "
          "invalidated or written back"});
  CHECK(
      check(kGl2Margin | kGl2Invalidate, Api::SyncBottomOfPipeX, Q::Graphics, false, true).empty());
  CHECK(check(kGl1Margin | kGl1Invalidate, Api::SyncTopOfPipeX, Q::Graphics) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL1_RANGE | 0x00000004 is the value of "
          "D3D12XBOX_SYNC_FLAG_GL1_MARGIN: only the first and last cache line of the range are "
          "invalidated"});
  const auto ps = check_sync_flags(kIcacheMargin, {.api = Api::SyncTopOfPipeX,
                                                   .queue = Q::Graphics,
                                                   .whole_memory = false,
                                                   .spelled_gl2_margin = true});
  REQUIRE(ps.size() == 1);
  CHECK(ps[0].severity == Severity::Warning);
  CHECK(ps[0].bits == 0x3);
}

TEST_CASE("check_margin_aliasing on its own") {
  CHECK(check_margin_aliasing(0x3, false, false, false).size() == 1);
  CHECK(check_margin_aliasing(0x3, true, false, false).empty());
  CHECK(check_margin_aliasing(0x180F, false, false, false).size() == 3);
  CHECK(check_margin_aliasing(0x180F, true, true, true).empty());
  CHECK(check_margin_aliasing(0x1001, false, false, false).empty());
  CHECK(text(check_margin_aliasing(0x1800, false, false, false)) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_VOLATILE | D3D12XBOX_SYNC_FLAG_GL2_RANGE is the value of "
          "D3D12XBOX_SYNC_FLAG_GL2_MARGIN: only the first and last cache line of the range are "
          "invalidated or written back"});
}

TEST_CASE("a GL1/GL2 selector without the operation it selects for modifies nothing") {
  CHECK(check(kGl1Range, Api::SyncTopOfPipeX, Q::Graphics, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL1_RANGE modifies nothing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE "
          "is not set"});
  CHECK(check(kGl1Margin, Api::SyncTopOfPipeX, Q::Compute, false, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL1_MARGIN modifies nothing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE "
          "is not set"});
  const std::string gl2 =
      " modifies nothing: none of D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE, "
      "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK, D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED is set";
  CHECK(check(kGl2Volatile, Api::Write64BitValueBottomOfPipe2X, Q::Graphics) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_VOLATILE" + gl2});
  CHECK(check(kGl2Range | kVcacheInvalidate, Api::SyncBottomOfPipeX, Q::Compute, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_RANGE" + gl2});
  CHECK(check(kGl2Margin, Api::SyncBottomOfPipeX, Q::Graphics, false, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_MARGIN" + gl2});
  for (uint32_t op : {kGl2Invalidate, kGl2Writeback, kGl2InvalidateUnshared})
    CHECK(check(kGl2Range | op, Api::SyncBottomOfPipeX, Q::Graphics).empty());
  CHECK(check(kGl1Range | kGl1Invalidate, Api::SyncTopOfPipeX, Q::Graphics).empty());
  // ICACHE_RANGE is itself an invalidation (GLI_INV = RANGE), not a modifier.
  CHECK(check(kIcacheRange, Api::SyncTopOfPipeX, Q::Graphics).empty());
}

TEST_CASE("a range or margin selector with the whole-memory range is a warning") {
  CHECK(check(kIcacheRange, Api::SyncTopOfPipeX, Q::Graphics, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_ICACHE_RANGE" + kWhole +
          " selects every line anyway: the range selector adds nothing"});
  CHECK(check(kIcacheMargin, Api::SyncTopOfPipeX, Q::Graphics, true, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN" + kWhole +
          " acts only on the first and last cache line of all memory"});
  CHECK(check(kGl1Range | kGl1Invalidate, Api::SyncTopOfPipeX, Q::Compute, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL1_RANGE" + kWhole +
          " selects every line anyway: the range selector adds nothing"});
  CHECK(check(kGl2Margin | kGl2Writeback, Api::SyncBottomOfPipeX, Q::Graphics, true, true) ==
        V{"W: D3D12XBOX_SYNC_FLAG_GL2_MARGIN" + kWhole +
          " acts only on the first and last cache line of all memory"});
  // VOLATILE ignores the range; ALL is not a range selector.
  CHECK(check(kGl2Volatile | kGl2Writeback, Api::SyncBottomOfPipeX, Q::Graphics, true).empty());
  CHECK(check(kIcacheInvalidate | kGl1Invalidate | kGl2Invalidate, Api::SyncTopOfPipeX, Q::Graphics,
              true)
            .empty());
}

TEST_CASE("TOP_MASK over the whole memory: every field is MARGIN of all memory") {
  CHECK(
      check(kTopMask, Api::SyncTopOfPipeX, Q::Graphics, true) ==
      V{"W: D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_ICACHE_RANGE is the value "
        "of D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN: only the first and last cache line of the range "
        "are invalidated",
        "W: D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN" + kWhole +
            " acts only on the first and last cache line of all memory",
        "W: D3D12XBOX_SYNC_FLAG_GL1_RANGE | 0x00000004 is the value of "
        "D3D12XBOX_SYNC_FLAG_GL1_MARGIN: only the first and last cache line of the range are "
        "invalidated",
        "W: D3D12XBOX_SYNC_FLAG_GL1_MARGIN" + kWhole +
            " acts only on the first and last cache line of all memory",
        "W: D3D12XBOX_SYNC_FLAG_GL2_VOLATILE | D3D12XBOX_SYNC_FLAG_GL2_RANGE is the value of "
        "D3D12XBOX_SYNC_FLAG_GL2_MARGIN: only the first and last cache line of the range are "
        "invalidated or written back",
        "W: D3D12XBOX_SYNC_FLAG_GL2_MARGIN" + kWhole +
            " acts only on the first and last cache line of all memory"});
}

TEST_CASE("sync flags on a host queue") {
  CHECK(check(kIdle, Api::SyncTopOfPipeX, Q::Host) ==
        V{"E: D3D12XBOX_SYNC_FLAGS have no meaning on a host queue (SyncTopOfPipeX is a GPU "
          "command)"});
}

TEST_CASE("control flags per API (001, 004, 002)") {
  using C = ControlFlag;
  CHECK(check_control_flags(cf({C::TopSelectEnginePfp, C::TopSelectEngineCe, C::IdleSelectEnginePfp,
                                C::IdleSelectEngineCe, C::CpdmaSelectEnginePfp}),
                            Api::SyncTopOfPipeX, Q::Graphics)
            .empty());
  CHECK(check_control_flags(
            cf({C::IdleSelectEnginePfp, C::IdleSelectEngineCe, C::CpdmaSelectEnginePfp}),
            Api::SyncBottomOfPipeX, Q::Graphics)
            .empty());
  const auto top_on_bop =
      check_control_flags(cf({C::TopSelectEnginePfp}), Api::SyncBottomOfPipeX, Q::Graphics);
  REQUIRE(top_on_bop.size() == 1);
  CHECK(top_on_bop[0].message ==
        "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP is not accepted by SyncBottomOfPipeX");
  CHECK(top_on_bop[0].bits == 1u << static_cast<int>(C::TopSelectEnginePfp));
  CHECK(text(check_control_flags(cf({C::GcrSequenceForward}), Api::SyncTopOfPipeX, Q::Graphics)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD is not accepted by "
          "SyncTopOfPipeX"});
  for (Api w : {Api::Write32BitValueBottomOfPipe2X, Api::Write64BitValueBottomOfPipe2X}) {
    for (Q q : {Q::Graphics, Q::Compute}) {
      CHECK(check_control_flags(cf({C::GcrSequenceForward}), w, q).empty());
      CHECK(check_control_flags(cf({C::GcrSequenceReverse}), w, q).empty());
      CHECK(check_control_flags(cf({}), w, q).empty());
    }
  }
  CHECK(text(check_control_flags(cf({C::GcrSequenceForward, C::GcrSequenceReverse}),
                                 Api::Write64BitValueBottomOfPipe2X, Q::Graphics)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD and "
          "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE cannot be combined "
          "(Write64BitValueBottomOfPipe2X takes one of them)"});
  CHECK(text(check_control_flags(cf({C::IdleSelectEnginePfp}), Api::Write32BitValueBottomOfPipe2X,
                                 Q::Graphics)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP is not accepted by "
          "Write32BitValueBottomOfPipe2X"});
  CHECK(text(check_control_flags(cf({C::CpdmaSelectEnginePfp}), Api::Signal2X, Q::Graphics)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP is not accepted by Signal2X"});
  CHECK(check_control_flags(cf({C::GcrSequenceReverse}), Api::WaitX, Q::Graphics).size() == 1);
}

TEST_CASE("PFP/CE control flags on a compute queue") {
  using C = ControlFlag;
  CHECK(text(check_control_flags(cf({C::IdleSelectEnginePfp}), Api::SyncTopOfPipeX, Q::Compute)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP is not accepted on a compute "
          "queue: a compute queue has no PFP"});
  CHECK(text(check_control_flags(cf({C::TopSelectEngineCe}), Api::SyncTopOfPipeX, Q::Compute)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE is not accepted on a compute "
          "queue: a compute queue has no CE"});
  CHECK(text(check_control_flags(cf({C::IdleSelectEngineCe, C::CpdmaSelectEnginePfp}),
                                 Api::SyncBottomOfPipeX, Q::Compute)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE is not accepted on a compute "
          "queue: a compute queue has no CE",
          "E: D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP is not accepted on a compute "
          "queue: a compute queue has no PFP"});
  CHECK(text(check_control_flags(cf({C::TopSelectEnginePfp}), Api::SyncTopOfPipeX, Q::Host)) ==
        V{"E: D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP is not accepted on a host queue"});
}

TEST_CASE("DispatchX flags (003)") {
  CHECK(check_dispatch_flags(0, Q::Graphics, false).empty());
  CHECK(check_dispatch_flags(known_dispatch_bits(), Q::Compute, true).empty());
  CHECK(text(check_dispatch_flags(0x1, Q::Compute, false)) ==
        V{"E: unknown bits 0x00000001 (not a D3D12XBOX_DISPATCH_FLAGS constant)"});
  CHECK(text(check_dispatch_flags(dispatch::kEnableOutOfOrder, Q::Graphics, false)) ==
        V{"E: D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER is only allowed on asynchronous "
          "(compute) queues, not on a graphics queue"});
  CHECK(check_dispatch_flags(dispatch::kEnableOutOfOrder, Q::Compute, false).empty());
  const auto w32 = check_dispatch_flags(dispatch::kW32, Q::Compute, false);
  REQUIRE(w32.size() == 1);
  CHECK(w32[0].bits == dispatch::kW32);
  CHECK(w32[0].message ==
        "D3D12XBOX_DISPATCH_FLAG_W32 requires a compute shader compiled with "
        "-D__XBOX_ENABLE_WAVE32=1 (mark the dispatch `[wave32]` in the case file)");
  CHECK(check_dispatch_flags(dispatch::kW32, Q::Graphics, true).empty());
}

TEST_CASE("write flags: one timestamp source at a time (002)") {
  using S = WriteValueSource;
  CHECK(check_write_value_flags({}).empty());
  const std::vector<S> one = {S::GpuTimestamp};
  CHECK(check_write_value_flags(one).empty());
  const std::vector<S> same_twice = {S::SystemTimestamp, S::SystemTimestamp, S::Value};
  CHECK(check_write_value_flags(same_twice).empty());
  const std::vector<S> both = {S::GpuTimestamp, S::Value, S::SystemTimestamp};
  CHECK(text(check_write_value_flags(both)) ==
        V{"E: D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP and "
          "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP cannot be combined (only one write "
          "flag is allowed at a time)"});
}

TEST_CASE("BOP write destinations are 4-byte aligned (002)") {
  CHECK(check_bop_destination(0).empty());
  CHECK(check_bop_destination(0x1000).empty());
  CHECK(check_bop_destination(0x1004).empty());
  CHECK(text(check_bop_destination(0x1002)) ==
        V{"E: Destination 0x1002 is not 4-byte aligned (Write*BitValueBottomOfPipe2X requires "
          "4-byte alignment)"});
  CHECK(check_bop_destination(0xFFFFFFFFFFFFFFFFull).size() == 1);
  CHECK(text(check_bop_destination(0xFFFFFFFFFFFFFFFCull, 8)) ==
        V{"E: Destination 0xFFFFFFFFFFFFFFFC: the 8-byte word would pass the end of the 64-bit "
          "address space"});
  CHECK(check_bop_destination(0xFFFFFFFFFFFFFFFCull, 4).empty());
  CHECK(text(check_bop_destination(0x1006, 4, true)) ==
        V{"E: Destination 0x1006 is not 4-byte aligned (Wait*BitValueX requires 4-byte "
          "alignment)"});
}

TEST_CASE("control flags that modify nothing next to their SyncFlags") {
  using namespace syncproof::model;
  ControlFlags cf;
  cf.set(ControlFlag::CpdmaSelectEnginePfp);
  auto p = check_control_effect(cf, sync::kIdle);
  REQUIRE(p.size() == 1);
  CHECK(p[0].severity == Severity::Warning);
  CHECK(p[0].message ==
        "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP modifies nothing: "
        "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA is not set");
  CHECK(check_control_effect(cf, sync::kSyncCpdma).empty());
  ControlFlags idle;
  idle.set(ControlFlag::IdleSelectEnginePfp);
  CHECK(check_control_effect(idle, sync::kCsPartialFlush).size() == 1);
  CHECK(check_control_effect(idle, sync::kIdle).empty());
  ControlFlags seq;
  seq.set(ControlFlag::GcrSequenceReverse);
  auto s = check_control_effect(seq, sync::kNone);
  REQUIRE(s.size() == 1);
  CHECK(s[0].message.find("no cache invalidation or write-back") != std::string::npos);
  CHECK(check_control_effect(seq, sync::kGl2Writeback).empty());
}
