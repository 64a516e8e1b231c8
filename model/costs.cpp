// The cost table. The numbers and their reasons are model/COSTS.md; tests/model/test_costs.cpp
// reads that table and compares it with this one, so they cannot drift apart.
#include "model/costs.h"

#include "model/barrier_pal.h"

#include <fmt/format.h>

#include <array>
#include <charconv>

namespace syncproof::model {

namespace {

using CK = CostKind;
constexpr uint32_t cmd(CostCommand c) {
  return static_cast<uint32_t>(c);
}
constexpr uint32_t ctl(ControlFlag f) {
  return static_cast<uint32_t>(f);
}

constexpr std::array kCostTable = std::to_array<CostEntry>({
    {CK::SyncFlag, sync::kVcacheInvalidate, "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE", 1},
    {CK::SyncFlag, sync::kKcacheInvalidate, "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE", 1},
    {CK::SyncFlag, sync::kIcacheInvalidate, "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE", 2},
    {CK::SyncFlag, sync::kGl1Invalidate, "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE", 2},
    {CK::SyncFlag, sync::kMcacheInvalidate, "D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE", 2},
    {CK::SyncFlag, sync::kMcacheWriteback, "D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK", 1},
    {CK::SyncFlag, sync::kGl2InvalidateUnshared, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED", 8},
    {CK::SyncFlag, sync::kGl2Invalidate, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE", 16},
    {CK::SyncFlag, sync::kGl2Writeback, "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK", 24},
    {CK::SyncFlag, sync::kPfpSyncMe, "D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME", 2},
    {CK::SyncFlag, sync::kSyncCpdma, "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA", 4},
    {CK::SyncFlag, sync::kVsPartialFlush, "D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH", 4},
    {CK::SyncFlag, sync::kPsPartialFlush, "D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH", 6},
    {CK::SyncFlag, sync::kCsPartialFlush, "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH", 6},
    {CK::SyncFlag, sync::kStreamoutFlush, "D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH", 3},
    {CK::SyncFlag, sync::kColorBlockMetaFlush, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH", 4},
    {CK::SyncFlag, sync::kDepthBlockMetaFlush, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH", 4},
    {CK::SyncFlag, sync::kColorBlockDataFlush, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH", 8},
    {CK::SyncFlag, sync::kDepthBlockDataFlush, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH", 8},
    {CK::SyncFlag, sync::kColorBlockInvalidate, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE", 8},
    {CK::SyncFlag, sync::kDepthBlockInvalidate, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE", 8},
    {CK::SyncFlag, sync::kBaseCoherency, "D3D12XBOX_SYNC_FLAG_BASE_COHERENCY", 8},
    {CK::SyncFlag, sync::kColorBlockCoherency, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY", 8},
    {CK::SyncFlag, sync::kDepthBlockCoherency, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY", 8},
    {CK::SyncFlag, sync::kIdle, "D3D12XBOX_SYNC_FLAG_IDLE", 32},
    {CK::Control, ctl(ControlFlag::TopSelectEnginePfp),
     "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP", 2},
    {CK::Control, ctl(ControlFlag::IdleSelectEnginePfp),
     "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP", 2},
    {CK::Control, ctl(ControlFlag::CpdmaSelectEnginePfp),
     "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP", 0},
    {CK::Control, ctl(ControlFlag::TopSelectEngineCe),
     "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE", 0},
    {CK::Control, ctl(ControlFlag::IdleSelectEngineCe),
     "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE", 0},
    {CK::Control, ctl(ControlFlag::GcrSequenceForward),
     "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD", 0},
    {CK::Control, ctl(ControlFlag::GcrSequenceReverse),
     "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE", 0},
    {CK::Command, cmd(CostCommand::SyncTopOfPipeX), "SyncTopOfPipeX", 1},
    {CK::Command, cmd(CostCommand::SyncBottomOfPipeX), "SyncBottomOfPipeX", 1},
    {CK::Command, cmd(CostCommand::BopWrite), "Write64BitValueBottomOfPipe2X", 1},
    {CK::Command, cmd(CostCommand::WaitValue), "Wait64BitValueX", 4},
    {CK::Command, cmd(CostCommand::Signal2X), "Signal2X", 1},
    {CK::Command, cmd(CostCommand::WaitX), "WaitX", 4},
    {CK::Command, cmd(CostCommand::Signal), "Signal", 1},
    {CK::Command, cmd(CostCommand::Wait), "Wait", 4},
    {CK::Command, cmd(CostCommand::HostSignal), "HostSignal", 0},
    {CK::Command, cmd(CostCommand::HostWait), "HostWait", 4},
    {CK::Command, cmd(CostCommand::ResourceBarrierTransition), "ResourceBarrier(TRANSITION)", 2},
    {CK::Command, cmd(CostCommand::ResourceBarrierUav), "ResourceBarrier(UAV)", 2},
    {CK::Command, cmd(CostCommand::ResourceBarrierAliasing), "ResourceBarrier(ALIASING)", 2},
    {CK::Command, cmd(CostCommand::BarrierGlobal), "Barrier(GLOBAL)", 2},
    {CK::Command, cmd(CostCommand::BarrierBuffer), "Barrier(BUFFER)", 2},
    {CK::Command, cmd(CostCommand::BarrierTexture), "Barrier(TEXTURE)", 2},
    {CK::Command, cmd(CostCommand::CompressedLayoutChange), "CompressedLayoutChange", 16},
});

constexpr std::string_view kSyncPrefix = "D3D12XBOX_SYNC_FLAG_";
constexpr std::string_view kControlPrefix = "D3D12XBOX_SYNC_CONTROL_FLAG_";

// The operation bits of a word (ICACHE as its ALL value 1 when its field selects anything).
std::vector<uint32_t> operations(uint32_t word) {
  std::vector<uint32_t> out;
  if (word & 3u) out.push_back(sync::kIcacheInvalidate);
  for (const CostEntry& e : kCostTable)
    if (e.kind == CK::SyncFlag && e.key != sync::kIcacheInvalidate && (word & e.key)) {
      out.push_back(e.key);
    }
  return out;
}

// What the standard Signal and Wait do besides signalling and waiting (R-STD-FENCE,
// R-FENCE-REACH: a compute queue's fence reaches GL2 and the shader caches only).
constexpr uint32_t kStdSignalGraphics = sync::kIdle | sync::kColorBlockDataFlush |
                                        sync::kDepthBlockDataFlush | sync::kColorBlockMetaFlush |
                                        sync::kDepthBlockMetaFlush | sync::kStreamoutFlush |
                                        sync::kGl2Writeback;
constexpr uint32_t kStdSignalCompute = sync::kIdle | sync::kGl2Writeback;
constexpr uint32_t kStdWait = sync::kGl2Writeback | sync::kGl2Invalidate | sync::kGl1Invalidate |
                              sync::kVcacheInvalidate | sync::kKcacheInvalidate |
                              sync::kIcacheInvalidate | sync::kMcacheInvalidate;

}  // namespace

std::span<const CostEntry> cost_table() {
  return kCostTable;
}

CostModel::CostModel() {
  for (const CostEntry& e : kCostTable) cost_.push_back(e.cost);
}

std::optional<std::string> CostModel::set(std::string_view a) {
  const size_t eq = a.find('=');
  if (eq == std::string_view::npos)
    return fmt::format("--cost '{}': expected NAME=N (a flag or command name, a number)", a);
  const std::string_view name = a.substr(0, eq), num = a.substr(eq + 1);
  int value = -1;
  auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), value);
  if (ec != std::errc() || ptr != num.data() + num.size() || value < 0 || value > 1000000)
    return fmt::format("--cost '{}': the cost must be a whole number from 0 to 1000000", a);
  std::string_view want = name;
  if (want == "Write32BitValueBottomOfPipe2X") want = "Write64BitValueBottomOfPipe2X";
  if (want == "Wait32BitValueX") want = "Wait64BitValueX";
  if (want == "D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE" || want == "GL0_INVALIDATE")
    want = "VCACHE_INVALIDATE";
  for (size_t i = 0; i < kCostTable.size(); ++i) {
    const std::string_view full = kCostTable[i].name;
    const bool match =
        full == want ||
        (full.starts_with(kSyncPrefix) && full.substr(kSyncPrefix.size()) == want) ||
        (full.starts_with(kControlPrefix) && full.substr(kControlPrefix.size()) == want);
    if (match) {
      cost_[i] = value;
      return std::nullopt;
    }
  }
  return fmt::format(
      "--cost '{}': '{}' has no cost of its own (see model/COSTS.md: sync operations, control "
      "flags and sync commands)",
      a, name);
}

int CostModel::flag(uint32_t bit) const {
  for (size_t i = 0; i < kCostTable.size(); ++i)
    if (kCostTable[i].kind == CK::SyncFlag && kCostTable[i].key == bit) return cost_[i];
  return 0;
}

int CostModel::control(ControlFlag f) const {
  for (size_t i = 0; i < kCostTable.size(); ++i)
    if (kCostTable[i].kind == CK::Control && kCostTable[i].key == ctl(f)) return cost_[i];
  return 0;
}

int CostModel::command(CostCommand c) const {
  for (size_t i = 0; i < kCostTable.size(); ++i)
    if (kCostTable[i].kind == CK::Command && kCostTable[i].key == cmd(c)) return cost_[i];
  return 0;
}

int CostModel::sync_word(uint32_t word) const {
  int sum = 0;
  for (uint32_t bit : operations(word)) sum += flag(bit);
  return sum;
}

int CostModel::controls(ControlFlags f) const {
  int sum = 0;
  for (int i = 0; i < kControlFlagCount; ++i)
    if (f.has(static_cast<ControlFlag>(i))) sum += control(static_cast<ControlFlag>(i));
  return sum;
}

int CostModel::of_barrier(const BarrierCmd& b, QueueType q, const Case* c) const {
  CostCommand row = CostCommand::BarrierGlobal;
  switch (b.kind) {
    case BarrierKind::Transition:
      row = CostCommand::ResourceBarrierTransition;
      break;
    case BarrierKind::Uav:
      row = CostCommand::ResourceBarrierUav;
      break;
    case BarrierKind::Aliasing:
      row = CostCommand::ResourceBarrierAliasing;
      break;
    case BarrierKind::Global:
      row = CostCommand::BarrierGlobal;
      break;
    case BarrierKind::Buffer:
      row = CostCommand::BarrierBuffer;
      break;
    case BarrierKind::Texture:
      row = CostCommand::BarrierTexture;
      break;
  }
  PalPlan plan;
  bool compressed_change = false;
  if (c) {
    plan = pal_plan(*c, b, q);
    const EnhancedBarrier e = enhanced(*c, b);
    for (uint32_t r : e.resources)
      compressed_change |= e.layout_change && c->resources[r].compressed;
  } else {
    Case none;  // no resources: a global barrier's view, the conservative target
    EnhancedBarrier e = enhanced(none, BarrierCmd{b.kind,
                                                  std::nullopt,
                                                  std::nullopt,
                                                  b.state_before,
                                                  b.state_after,
                                                  b.flags,
                                                  b.sync_before,
                                                  b.sync_after,
                                                  b.access_before,
                                                  b.access_after,
                                                  b.layout_before,
                                                  b.layout_after,
                                                  b.discard,
                                                  {}});
    plan = pal_plan(e, q, Target{}, true);
  }
  // A split barrier's BEGIN half pays for the release, its END half for the acquire.
  const SplitPart part = split_part(b);
  const uint32_t ops = part == SplitPart::Begin ? plan.release
                       : part == SplitPart::End ? plan.acquire
                                                : plan.release | plan.acquire;
  return command(row) + sync_word(ops) +
         (compressed_change && part != SplitPart::End ? command(CostCommand::CompressedLayoutChange)
                                                      : 0);
}

int CostModel::of(const Command& c, QueueType q, const Case* owner) const {
  if (const auto* b = std::get_if<BarrierCmd>(&c.body)) return of_barrier(*b, q, owner);
  if (const auto* s = std::get_if<SyncCmd>(&c.body))
    return command(s->api == SyncApi::SyncTopOfPipeX ? CostCommand::SyncTopOfPipeX
                                                     : CostCommand::SyncBottomOfPipeX) +
           sync_word(s->flags) + controls(s->control);
  if (const auto* b = std::get_if<BopWriteCmd>(&c.body))
    return command(CostCommand::BopWrite) + sync_word(b->flags) + controls(b->control);
  if (std::holds_alternative<WaitValueCmd>(c.body)) return command(CostCommand::WaitValue);
  if (const auto* s = std::get_if<SignalCmd>(&c.body)) {
    if (q == QueueType::Host) return command(CostCommand::HostSignal);
    if (s->xbox) return command(CostCommand::Signal2X) + sync_word(s->flags);
    return command(CostCommand::Signal) +
           sync_word(q == QueueType::Compute ? kStdSignalCompute : kStdSignalGraphics);
  }
  if (const auto* w = std::get_if<WaitFenceCmd>(&c.body)) {
    if (q == QueueType::Host) return command(CostCommand::HostWait);
    if (w->xbox) return command(CostCommand::WaitX) + sync_word(w->flags);
    return command(CostCommand::Wait) + sync_word(kStdWait);
  }
  return 0;
}

int CostModel::barrier(const Case& c) const {
  int sum = 0;
  for (const Queue& q : c.queues)
    for (const Command& cmd : q.commands) sum += of(cmd, q.type, &c);
  return sum;
}

std::string short_flag_name(std::string_view full) {
  for (std::string_view p : {kControlPrefix, kSyncPrefix, std::string_view("D3D12XBOX_")})
    if (full.starts_with(p)) return std::string(full.substr(p.size()));
  return std::string(full);
}

}  // namespace syncproof::model
