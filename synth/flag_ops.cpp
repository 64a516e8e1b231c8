#include "synth/flag_ops.h"

#include "model/flags.h"
#include "model/validity.h"

namespace syncproof::synth {

using namespace model;

std::optional<Carrier> carrier(Command& cmd) {
  if (auto* s = std::get_if<SyncCmd>(&cmd.body)) return Carrier{&s->flags, s->api, &s->control};
  if (auto* b = std::get_if<BopWriteCmd>(&cmd.body)) return Carrier{&b->flags, b->api, &b->control};
  if (auto* s = std::get_if<SignalCmd>(&cmd.body); s && s->xbox)
    return Carrier{&s->flags, SyncApi::Signal2X, nullptr};
  if (auto* w = std::get_if<WaitFenceCmd>(&cmd.body); w && w->xbox)
    return Carrier{&w->flags, SyncApi::WaitX, nullptr};
  return std::nullopt;
}

std::optional<ConstCarrier> carrier(const Command& cmd) {
  Command& c = const_cast<Command&>(cmd);  // read only: nothing is written through it
  auto k = carrier(c);
  if (!k) return std::nullopt;
  return ConstCarrier{*k->flags, k->api, k->control ? *k->control : ControlFlags{}};
}

std::vector<const FlagDef*> operation_flags() {
  std::vector<const FlagDef*> out;
  for (const FlagDef& d : all_flags())
    if (d.family == FlagFamily::Sync && d.value && *d.value &&
        (d.kind == FlagKind::Bit || d.name == "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE"))
      out.push_back(&d);
  return out;
}

bool has_operation(uint32_t word, uint32_t bit) {
  if (bit == sync::kIcacheInvalidate) return (word & 3u) != 0;
  return (word & bit) == bit;
}

bool can_add_operation(uint32_t word, uint32_t bit) {
  if (bit == sync::kIcacheInvalidate) return (word & 3u) == 0;
  return (word & bit) == 0;
}

bool valid_word(uint32_t word, SyncApi api, QueueType q, bool whole_memory) {
  SyncFlagContext ctx{api, q};
  ctx.whole_memory = whole_memory;
  for (const FlagProblem& fp : check_sync_flags(word, ctx))
    if (fp.severity == Severity::Error) return false;
  return true;
}

}  // namespace syncproof::synth
