// Which flags each API and queue type accepts, read off the seeds:
//  - SyncTopOfPipeX: TOP_MASK on graphics queues, TOP_COMPUTE_MASK on compute queues (000);
//  - SyncBottomOfPipeX: BOP_MASK / BOP_COMPUTE_MASK (000);
//  - Write32/64BitValueBottomOfPipe2X: exactly the seven flags 002 lists, on both queue types
//    (002 documents the 64-bit form; 000 passes the same enum to both, so the 32-bit form is
//    taken to accept the same list);
//  - Signal2X / WaitX: 000 only says the enum is passed to them "indirectly" and lists no flags.
//    INFERENCE: a signal completes at the bottom of the pipe and a wait gates the top, so Signal2X
//    takes the BOP set and WaitX the TOP set of the queue type (the masks only, no extras).
// Two flags are in no mask but appear in the operation order of the sync commands: SYNC_CPDMA is
// listed first by both 001 (top) and 004 (bottom), and PFP_SYNC_ME is listed last by 004. A flag
// the command documents an execution slot for is accepted by it: SYNC_CPDMA by both Sync*OfPipeX
// on both queue types (a compute queue's CP has a CP DMA engine to wait for too: 001/004 describe
// the ME's CPDMA queue, which every CP has; only the PFP's separate queue is graphics-only), and
// PFP_SYNC_ME by SyncBottomOfPipeX on graphics queues (compute queues have no PFP).
#include "model/validity.h"

#include <fmt/format.h>

namespace syncproof::model {
namespace {

using namespace sync;

constexpr std::string_view kWholeMemory =
    "with the whole-memory range (BaseAddress 0, SizeInBytes D3D12XBOX_FLUSH_RANGE_ALL)";

std::string_view compute_mask_name(SyncApi api) {
  switch (api) {
    case SyncApi::SyncTopOfPipeX:
    case SyncApi::WaitX:
      return "D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK";
    case SyncApi::SyncBottomOfPipeX:
    case SyncApi::Signal2X:
      return "D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK";
    case SyncApi::Write32BitValueBottomOfPipe2X:
    case SyncApi::Write64BitValueBottomOfPipe2X:
      break;
  }
  return "";
}

// Why a graphics-only sync flag has no meaning on a compute queue.
std::string_view compute_reason(uint32_t bit) {
  switch (bit) {
    case kPfpSyncMe:
      return "a compute queue has no PFP";
    case kVsPartialFlush:
    case kPsPartialFlush:
      return "a compute queue has no VS/PS stage";
    case kStreamoutFlush:
      return "a compute queue has no VS/PS stage and so no stream-out";
    case kBaseCoherency:
      return "a compute queue has no graphics context";
    case kColorBlockCoherency:
    case kDepthBlockCoherency:
    case kColorBlockInvalidate:
    case kDepthBlockInvalidate:
    case kColorBlockDataFlush:
    case kDepthBlockDataFlush:
    case kColorBlockMetaFlush:
    case kDepthBlockMetaFlush:
      return "a compute queue has no render back-ends (color/depth blocks)";
    default:
      return "";
  }
}

// "NAME is not accepted by API" or, when only the queue type is the problem, the compute form.
void reject(std::vector<FlagProblem>& out, std::string_view name, uint32_t bits,
            const SyncFlagContext& ctx, uint32_t graphics_accepted, uint32_t bit_for_reason) {
  if (ctx.queue == QueueType::Compute && (bits & ~graphics_accepted) == 0) {
    std::string msg = fmt::format("{} is not accepted on a compute queue ({} accepts {} there)",
                                  name, to_string(ctx.api), compute_mask_name(ctx.api));
    if (auto why = compute_reason(bit_for_reason); !why.empty()) msg += fmt::format(": {}", why);
    out.push_back({Severity::Error, bits, std::move(msg)});
  } else {
    out.push_back(
        {Severity::Error, bits, fmt::format("{} is not accepted by {}", name, to_string(ctx.api))});
  }
}

constexpr SyncField kFields[] = {SyncField::Icache, SyncField::Gl1Range, SyncField::Gl2Range};

// The field a Field-kind constant's value lies in.
std::optional<SyncField> field_of(uint32_t constant) {
  for (SyncField f : kFields) {
    if (constant & field_mask(f)) return f;
  }
  return std::nullopt;
}

// The MARGIN-by-OR warning of one field, when its value is MARGIN and the name was not spelled.
void margin_alias(std::vector<FlagProblem>& out, SyncField f, uint32_t value, bool spelled) {
  if (spelled || field_value(f, value) != 3) return;
  std::string_view what;
  switch (f) {
    case SyncField::Icache:
      what = "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_ICACHE_RANGE";
      break;
    case SyncField::Gl1Range:
      what = "D3D12XBOX_SYNC_FLAG_GL1_RANGE | 0x00000004";
      break;
    case SyncField::Gl2Range:
      what = "D3D12XBOX_SYNC_FLAG_GL2_VOLATILE | D3D12XBOX_SYNC_FLAG_GL2_RANGE";
      break;
  }
  const std::string_view effect =
      f == SyncField::Gl2Range ? "invalidated or written back" : "invalidated";
  out.push_back({Severity::Warning, field_mask(f),
                 fmt::format("{} is the value of {}: only the first and last cache line of the "
                             "range are {}",
                             what, field_constant_name(f, 3), effect)});
}

bool spelled_margin(SyncField f, const SyncFlagContext& ctx) {
  switch (f) {
    case SyncField::Icache:
      return ctx.spelled_icache_margin;
    case SyncField::Gl1Range:
      return ctx.spelled_gl1_margin;
    case SyncField::Gl2Range:
      return ctx.spelled_gl2_margin;
  }
  return false;
}

// Warnings about one (accepted) range field: aliasing, nothing to modify, whole-memory range.
void field_warnings(std::vector<FlagProblem>& out, SyncField f, uint32_t value,
                    const SyncFlagContext& ctx) {
  const uint8_t v = field_value(f, value);
  if (v == 0 || (f == SyncField::Gl1Range && v == 1)) return;
  const std::string_view name = field_constant_name(f, v);
  // The I$ field is itself the invalidation; the GL1/GL2 fields only select the lines that
  // GL1_INVALIDATE / GL2_INVALIDATE, GL2_WRITEBACK, GL2_INVALIDATE_UNSHARED act on
  // (research/semantics.md §1.3: RADV skips an ACQUIRE_MEM left with only these bits).
  if (f == SyncField::Gl1Range && !(value & kGl1Invalidate)) {
    out.push_back(
        {Severity::Warning, field_mask(f),
         fmt::format("{} modifies nothing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE is not set", name)});
    return;
  }
  if (f == SyncField::Gl2Range &&
      !(value & (kGl2Invalidate | kGl2Writeback | kGl2InvalidateUnshared))) {
    out.push_back({Severity::Warning, field_mask(f),
                   fmt::format("{} modifies nothing: none of D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE, "
                               "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK, "
                               "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED is set",
                               name)});
    return;
  }
  margin_alias(out, f, value, spelled_margin(f, ctx));
  // GL2 VOLATILE (1) ignores the range; ICACHE ALL (1) does not use it.
  if (!ctx.whole_memory || v == 1) return;
  if (v == 2)
    out.push_back({Severity::Warning, field_mask(f),
                   fmt::format("{} {} selects every line anyway: the range selector adds nothing",
                               name, kWholeMemory)});
  else
    out.push_back({Severity::Warning, field_mask(f),
                   fmt::format("{} {} acts only on the first and last cache line of all memory",
                               name, kWholeMemory)});
}

}  // namespace

std::string_view to_string(QueueType q) {
  switch (q) {
    case QueueType::Graphics:
      return "graphics";
    case QueueType::Compute:
      return "compute";
    case QueueType::Host:
      return "host";
  }
  return "";
}

std::string_view to_string(SyncApi a) {
  switch (a) {
    case SyncApi::SyncTopOfPipeX:
      return "SyncTopOfPipeX";
    case SyncApi::SyncBottomOfPipeX:
      return "SyncBottomOfPipeX";
    case SyncApi::Write32BitValueBottomOfPipe2X:
      return "Write32BitValueBottomOfPipe2X";
    case SyncApi::Write64BitValueBottomOfPipe2X:
      return "Write64BitValueBottomOfPipe2X";
    case SyncApi::Signal2X:
      return "Signal2X";
    case SyncApi::WaitX:
      return "WaitX";
  }
  return "";
}

bool is_bop_write(SyncApi a) {
  return a == SyncApi::Write32BitValueBottomOfPipe2X || a == SyncApi::Write64BitValueBottomOfPipe2X;
}

uint32_t accepted_sync_flags(SyncApi api, QueueType q) {
  if (q == QueueType::Host) return 0;
  const bool gfx = q == QueueType::Graphics;
  switch (api) {
    case SyncApi::SyncTopOfPipeX:
      return (gfx ? kTopMask : kTopComputeMask) | kSyncCpdma;
    case SyncApi::SyncBottomOfPipeX:
      return gfx ? kBopMask | kSyncCpdma | kPfpSyncMe : kBopComputeMask | kSyncCpdma;
    case SyncApi::Write32BitValueBottomOfPipe2X:
    case SyncApi::Write64BitValueBottomOfPipe2X:
      return kBopWriteAccepted;
    case SyncApi::Signal2X:
      return gfx ? kBopMask : kBopComputeMask;  // inference, see top
    case SyncApi::WaitX:
      return gfx ? kTopMask : kTopComputeMask;  // inference, see top
  }
  return 0;
}

std::vector<FlagProblem> check_sync_flags(uint32_t value, const SyncFlagContext& ctx) {
  std::vector<FlagProblem> out;
  if (ctx.queue == QueueType::Host) {
    if (value != 0)
      out.push_back({Severity::Error, value,
                     fmt::format("D3D12XBOX_SYNC_FLAGS have no meaning on a host queue ({} is a "
                                 "GPU command)",
                                 to_string(ctx.api))});
    return out;
  }
  const SyncFields fields = decode_sync(value);
  if (fields.unknown_bits)
    out.push_back({Severity::Error, fields.unknown_bits,
                   fmt::format("unknown bits 0x{:08X} (not a D3D12XBOX_SYNC_FLAGS constant)",
                               fields.unknown_bits)});
  const bool gl1_reserved = fields.gl1_range == Gl1RangeSel::Reserved;
  if (gl1_reserved)
    out.push_back({Severity::Error, 0x4,
                   "GL1 range selector value 1 (bit 0x00000004 without 0x00000008) is reserved: "
                   "no D3D12XBOX_SYNC_FLAGS constant has this value"});

  const uint32_t accepted = accepted_sync_flags(ctx.api, ctx.queue);
  const uint32_t graphics_accepted = accepted_sync_flags(ctx.api, QueueType::Graphics);
  bool field_seen[3] = {false, false, false};
  bool field_ok[3] = {false, false, false};
  for (const FlagDef& d : all_flags()) {  // header order, a field at its first constant
    if (d.family != FlagFamily::Sync || !d.value || *d.value == 0) continue;
    if (d.kind == FlagKind::Field) {
      const auto f = field_of(*d.value);
      if (!f) continue;  // cannot happen: every Field constant lies in one of the three fields
      const int i = static_cast<int>(*f);
      if (field_seen[i]) continue;
      field_seen[i] = true;
      const uint32_t bits = value & field_mask(*f);
      if (bits == 0 || (*f == SyncField::Gl1Range && gl1_reserved)) continue;
      if (bits & ~accepted)
        reject(out, field_constant_name(*f, field_value(*f, value)), bits & ~accepted, ctx,
               graphics_accepted, 0);
      else
        field_ok[i] = true;
    } else if (d.kind == FlagKind::Bit && (value & *d.value & ~accepted)) {
      reject(out, d.name, *d.value, ctx, graphics_accepted, *d.value);
    }
  }
  for (SyncField f : kFields) {
    if (field_ok[static_cast<int>(f)]) field_warnings(out, f, value, ctx);
  }
  return out;
}

std::vector<FlagProblem> check_margin_aliasing(uint32_t value, bool spelled_icache_margin,
                                               bool spelled_gl1_margin, bool spelled_gl2_margin) {
  std::vector<FlagProblem> out;
  margin_alias(out, SyncField::Icache, value, spelled_icache_margin);
  margin_alias(out, SyncField::Gl1Range, value, spelled_gl1_margin);
  margin_alias(out, SyncField::Gl2Range, value, spelled_gl2_margin);
  return out;
}

std::vector<FlagProblem> check_control_flags(ControlFlags flags, SyncApi api, QueueType q) {
  using CF = ControlFlag;
  std::vector<FlagProblem> out;
  auto accepts = [api](CF f) {
    switch (api) {
      case SyncApi::SyncTopOfPipeX:  // 001
        return f == CF::TopSelectEnginePfp || f == CF::TopSelectEngineCe ||
               f == CF::IdleSelectEnginePfp || f == CF::IdleSelectEngineCe ||
               f == CF::CpdmaSelectEnginePfp;
      case SyncApi::SyncBottomOfPipeX:  // 004
        return f == CF::IdleSelectEnginePfp || f == CF::IdleSelectEngineCe ||
               f == CF::CpdmaSelectEnginePfp;
      case SyncApi::Write32BitValueBottomOfPipe2X:  // 002
      case SyncApi::Write64BitValueBottomOfPipe2X:
        return f == CF::GcrSequenceForward || f == CF::GcrSequenceReverse;
      case SyncApi::Signal2X:  // these take no ControlFlags parameter
      case SyncApi::WaitX:
        return false;
    }
    return false;
  };
  for (int i = 0; i < kControlFlagCount; ++i) {
    const auto f = static_cast<CF>(i);
    if (!flags.has(f)) continue;
    const uint32_t bit = 1u << i;  // position in ControlFlags::bits (the flags have no values)
    const std::string_view name = full_name(f);
    if (q == QueueType::Host) {
      out.push_back(
          {Severity::Error, bit, fmt::format("{} is not accepted on a host queue", name)});
    } else if (!accepts(f)) {
      out.push_back(
          {Severity::Error, bit, fmt::format("{} is not accepted by {}", name, to_string(api))});
    } else if (q == QueueType::Compute && f != CF::GcrSequenceForward &&
               f != CF::GcrSequenceReverse) {
      const bool ce = f == CF::TopSelectEngineCe || f == CF::IdleSelectEngineCe;
      out.push_back({Severity::Error, bit,
                     fmt::format("{} is not accepted on a compute queue: a compute queue has no {}",
                                 name, ce ? "CE" : "PFP")});
    }
  }
  if (is_bop_write(api) && flags.has(CF::GcrSequenceForward) && flags.has(CF::GcrSequenceReverse))
    out.push_back({Severity::Error, 0,
                   fmt::format("D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD and "
                               "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE cannot be "
                               "combined ({} takes one of them)",
                               to_string(api))});
  return out;
}

std::vector<FlagProblem> check_dispatch_flags(uint32_t value, QueueType q, bool shader_is_wave32) {
  std::vector<FlagProblem> out;
  if (uint32_t unknown = value & ~known_dispatch_bits())
    out.push_back(
        {Severity::Error, unknown,
         fmt::format("unknown bits 0x{:08X} (not a D3D12XBOX_DISPATCH_FLAGS constant)", unknown)});
  if ((value & dispatch::kEnableOutOfOrder) && q != QueueType::Compute)
    out.push_back({Severity::Error, dispatch::kEnableOutOfOrder,
                   fmt::format("D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER is only allowed on "
                               "asynchronous (compute) queues, not on a {} queue",
                               to_string(q))});
  if ((value & dispatch::kW32) && !shader_is_wave32)
    out.push_back({Severity::Error, dispatch::kW32,
                   "D3D12XBOX_DISPATCH_FLAG_W32 requires a compute shader compiled with "
                   "-D__XBOX_ENABLE_WAVE32=1 (mark the dispatch `[wave32]` in the case file)"});
  return out;
}

std::vector<FlagProblem> check_write_value_flags(std::span<const WriteValueSource> named) {
  bool gpu = false, system = false;
  for (WriteValueSource s : named) {
    gpu |= s == WriteValueSource::GpuTimestamp;
    system |= s == WriteValueSource::SystemTimestamp;
  }
  if (!(gpu && system)) return {};
  return {{Severity::Error, 0,
           "D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP and "
           "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP cannot be combined (only one write "
           "flag is allowed at a time)"}};
}

std::vector<FlagProblem> check_bop_destination(uint64_t address, uint64_t bytes, bool wait) {
  const char* api = wait ? "Wait*BitValueX" : "Write*BitValueBottomOfPipe2X";
  if (address % 4 != 0)
    return {{Severity::Error, 0,
             fmt::format("Destination 0x{:X} is not 4-byte aligned ({} requires 4-byte alignment)",
                         address, api)}};
  if (address > UINT64_MAX - (bytes - 1))
    return {{Severity::Error, 0,
             fmt::format("Destination 0x{:X}: the {}-byte word would pass the end of the 64-bit "
                         "address space",
                         address, bytes)}};
  return {};
}

std::vector<FlagProblem> check_control_effect(ControlFlags flags, uint32_t sync_flags) {
  using CF = ControlFlag;
  const SyncFields f = decode_sync(sync_flags);
  const bool gcr = f.icache != IcacheSel::None || f.kcache_inv || f.vcache_inv || f.gl1_inv ||
                   f.gl2_inv || f.gl2_wb || f.gl2_inv_unshared || f.mcache_inv || f.mcache_wb;
  std::vector<FlagProblem> out;
  auto warn = [&](CF c, std::string_view why) {
    out.push_back({Severity::Warning, 1u << static_cast<int>(c),
                   fmt::format("{} modifies nothing: {}", full_name(c), why)});
  };
  if (flags.has(CF::CpdmaSelectEnginePfp) && !f.sync_cpdma)
    warn(CF::CpdmaSelectEnginePfp, "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA is not set");
  if (flags.has(CF::IdleSelectEnginePfp) && !f.idle)
    warn(CF::IdleSelectEnginePfp, "D3D12XBOX_SYNC_FLAG_IDLE is not set");
  if (flags.has(CF::IdleSelectEngineCe) && !f.idle)
    warn(CF::IdleSelectEngineCe, "D3D12XBOX_SYNC_FLAG_IDLE is not set");
  for (CF c : {CF::GcrSequenceForward, CF::GcrSequenceReverse})
    if (flags.has(c) && !gcr) warn(c, "no cache invalidation or write-back is requested");
  return out;
}

}  // namespace syncproof::model
