// A generated frame that looks like one: graphics, async compute and the CPU share resources
// through fences and labels, with the syncs a correct engine emits (see generate.h). Each block is
// one "pass group" of a frame:
//
//   CPU       writes the block's staging buffer, Signal(f_cpu), waits for the block's readback
//             (Wait(f_gfx)) and reads it.
//   graphics  WaitX(f_cpu); GL2 invalidation of the staging lines; a CP DMA copy into a vertex
//             buffer; SYNC_CPDMA + GL1/GL0; G-buffer draws (colour + depth); a few dispatches on
//             the graphics queue with their partial flushes; CB/DB flushes and a 32-bit BOP label
//             with GL2_WRITEBACK for async compute; later a wait for compute's label, a compose
//             draw reading compute's output; a readback (CB flush + GL2 write-back + IDLE, GL2
//             invalidation, CP DMA copy) and the standard Signal for the CPU.
//   compute   Wait(f_cpu); its own CP DMA copy of the staging data; a simulation dispatch; waits
//             for the G-buffer label; lighting and post dispatches; a BOP label for graphics.
//
// Transient resources rotate over kSlots slots, so block i reuses block i-kSlots's buffers: the
// WAR and WAW pairs across queues that API order sequences through the fences and labels.
#include <fmt/format.h>

#include <random>
#include <vector>

#include "tools/generate.h"

namespace syncproof::cli {

namespace {

constexpr int kSlots = 3;
const char* const kAll = "0, D3D12XBOX_FLUSH_RANGE_ALL";

struct Block {
  int draws, gfx_dispatches, acs_chain;
};

// The commands one block adds over all queues (without its random extras).
int block_size(const Block& b) {
  return 30 + b.draws + 3 * b.gfx_dispatches + 3 * b.acs_chain;
}

}  // namespace

std::string_view to_string(FrameBug b) {
  switch (b) {
    case FrameBug::None:
      return "none";
    case FrameBug::NoGl1Invalidate:
      return "no-gl1-invalidate";
    case FrameBug::NoLabelWait:
      return "no-label-wait";
    case FrameBug::NoGl2Writeback:
      return "no-gl2-writeback";
    case FrameBug::NoSyncCpdma:
      return "no-sync-cpdma";
  }
  return "?";
}

std::string generate_frame(const FrameShape& s) {
  std::mt19937_64 rng(s.seed);
  auto pick = [&](int lo, int hi) {  // inclusive
    return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1));
  };
  std::vector<Block> blocks;
  for (int total = 0; total < s.commands || blocks.empty();) {
    blocks.push_back({pick(4, 12), pick(0, 3), pick(0, 3)});
    total += block_size(blocks.back());
  }
  const int n = static_cast<int>(blocks.size());
  const int mid = n / 2;  // the block the properties (and the bug) are about
  const FrameBug bug = s.bug;
  std::string out = fmt::format(
      "# generated frame: seed {}, about {} commands in {} blocks, 3 queues{}\n"
      "case \"generated frame\"\n"
      "queue gfx graphics\nqueue acs compute\nqueue cpu host\n\n",
      s.seed, s.commands, n,
      bug == FrameBug::None ? std::string()
                            : fmt::format(", bug {} in block {}", to_string(bug), mid));
  uint64_t addr = 0x1000000;
  auto res = [&](const char* kind, const std::string& name, uint64_t size) {
    out += fmt::format("{} {} 0x{:X} 0x{:X}\n", kind, name, addr, size);
    addr += (size + 0xFFFF) / 0x10000 * 0x10000;
  };
  for (int k = 0; k < kSlots; ++k) {
    res("buffer", fmt::format("up{}", k), 0x10000);     // CPU staging
    res("buffer", fmt::format("vb{}", k), 0x10000);     // graphics copy target, vertex data
    res("buffer", fmt::format("an{}", k), 0x8000);      // compute copy target
    res("buffer", fmt::format("sim{}", k), 0x8000);     // compute simulation output
    res("texture", fmt::format("gb{}", k), 0x200000);   // G-buffer colour
    res("texture", fmt::format("zb{}", k), 0x200000);   // depth
    res("texture", fmt::format("lit{}", k), 0x200000);  // compute lighting output
    res("texture", fmt::format("post{}", k), 0x100000);
    res("buffer", fmt::format("rb{}", k), 0x100000);  // readback
    res("buffer", fmt::format("gs{}", k), 0x8000);    // graphics-queue compute scratch
  }
  res("buffer", "mesh", 0x100000);  // static geometry: read by every G-buffer draw
  res("texture", "ldr", 0x400000);  // the frame's colour target, read back every block
  out += "fence f_cpu\nfence f_gfx\n";
  out += fmt::format("label l_gbuf 0x{:X}\nlabel l_lit 0x{:X}\n\n", addr, addr + 8);

  std::string cpu, gfx, acs;
  for (int i = 0; i < n; ++i) {
    const Block& b = blocks[i];
    const int k = i % kSlots;
    const bool at_bug = bug != FrameBug::None && i == mid;
    const uint64_t v = static_cast<uint64_t>(i) + 1;
    // CPU
    cpu += fmt::format("  h_up_{}: Host writes up{} as host\n", i, k);
    cpu += fmt::format("  Signal(f_cpu, {})\n", v);
    cpu += fmt::format("  Wait(f_gfx, {})\n", v);
    cpu += fmt::format("  h_rb_{}: Host reads rb{} as host\n", i, k);
    // graphics: upload, G-buffer
    gfx += fmt::format("  WaitX(f_cpu, {})\n", v);
    gfx += fmt::format("  SyncTopOfPipeX(GL2_INVALIDATE | GL2_RANGE, NONE, up{0}, up{0})\n", k);
    gfx += fmt::format(
        "  g_copy_{}: CopyBufferRegion reads up{} as copy-src, writes vb{} as copy-dst\n", i, k, k);
    gfx += fmt::format("  SyncTopOfPipeX({}GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n",
                       at_bug && bug == FrameBug::NoSyncCpdma ? "" : "SYNC_CPDMA | ", kAll);
    for (int d = 0; d < b.draws; ++d)
      gfx += fmt::format(
          "  g_draw_{}_{}: DrawInstanced reads vb{} as vertex, reads mesh as vertex, writes gb{} "
          "as "
          "rt, writes zb{} as depth\n",
          i, d, k, k, k);
    // compute work on the graphics queue, each dispatch behind a barrier
    for (int d = 0; d < b.gfx_dispatches; ++d) {
      gfx += fmt::format("  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})\n", kAll);
      gfx += fmt::format("  SyncTopOfPipeX(GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n", kAll);
      gfx +=
          fmt::format("  g_cs_{}_{}: Dispatch reads {} as srv, writes gs{} as uav\n", i, d,
                      d == 0 ? fmt::format("vb{}", k) : fmt::format("gs{}", (k + 1) % kSlots), k);
    }
    gfx += fmt::format(
        "  SyncBottomOfPipeX(COLOR_BLOCK_DATA_FLUSH | DEPTH_BLOCK_DATA_FLUSH, NONE, {})\n", kAll);
    gfx += fmt::format("  Write32BitValueBottomOfPipe2X(l_gbuf, {}, {}, NONE, NONE)\n", v,
                       at_bug && bug == FrameBug::NoGl2Writeback ? "NONE" : "GL2_WRITEBACK");
    // graphics: compose compute's output, read the frame back for the CPU
    gfx += fmt::format("  Wait32BitValueX(l_lit, GREATER_EQUAL, {})\n", v);
    gfx += fmt::format("  SyncTopOfPipeX(GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n", kAll);
    gfx += fmt::format(
        "  g_compose_{}: Draw reads lit{} as srv in ps, reads post{} as srv in ps, writes ldr as "
        "rt\n",
        i, k, k);
    gfx += fmt::format(
        "  SyncBottomOfPipeX(COLOR_BLOCK_DATA_FLUSH | GL2_WRITEBACK | IDLE, NONE, {})\n", kAll);
    gfx += fmt::format("  SyncTopOfPipeX(GL2_INVALIDATE, NONE, {})\n", kAll);
    gfx += fmt::format(
        "  g_rb_{}: CopyTextureRegion reads ldr as copy-src, writes rb{} as copy-dst\n", i, k);
    gfx += fmt::format("  Signal(f_gfx, {})\n", v);
    // async compute
    acs += fmt::format("  Wait(f_cpu, {})\n", v);
    acs += fmt::format(
        "  a_copy_{}: CopyBufferRegion reads up{} as copy-src, writes an{} as copy-dst\n", i, k, k);
    acs += fmt::format(
        "  SyncTopOfPipeX(SYNC_CPDMA | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n", kAll);
    acs += fmt::format("  a_sim_{}: Dispatch reads an{} as srv, writes sim{} as uav\n", i, k, k);
    for (int d = 0; d < b.acs_chain; ++d) {
      acs += fmt::format("  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})\n", kAll);
      acs += fmt::format("  SyncTopOfPipeX(GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n", kAll);
      acs += fmt::format(
          "  a_step_{}_{}: Dispatch reads sim{} as srv, reads an{} as srv, writes sim{} as uav\n",
          i, d, k, k, k);
    }
    if (!(at_bug && bug == FrameBug::NoLabelWait))
      acs += fmt::format("  Wait32BitValueX(l_gbuf, GREATER_EQUAL, {})\n", v);
    acs += fmt::format("  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})\n", kAll);
    acs += fmt::format("  SyncTopOfPipeX(GL2_INVALIDATE | {}VCACHE_INVALIDATE, NONE, {})\n",
                       at_bug && bug == FrameBug::NoGl1Invalidate ? "" : "GL1_INVALIDATE | ", kAll);
    acs += fmt::format(
        "  a_light_{}: Dispatch reads gb{} as srv, reads zb{} as srv, reads sim{} as srv, writes "
        "lit{} "
        "as uav\n",
        i, k, k, k, k);
    acs += fmt::format("  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})\n", kAll);
    acs += fmt::format("  SyncTopOfPipeX(GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, {})\n", kAll);
    acs += fmt::format("  a_post_{}: Dispatch reads lit{} as srv, writes post{} as uav\n", i, k, k);
    acs += fmt::format("  Write32BitValueBottomOfPipe2X(l_lit, {}, NONE, NONE, NONE)\n", v);
  }
  out += "on cpu:\n" + cpu + "\non gfx:\n" + gfx + "\non acs:\n" + acs + "\n";
  // Properties about the middle block, where the bug (if any) is.
  const int m = mid;
  const int last_draw = blocks[m].draws - 1;
  const bool bug_gbuf = bug == FrameBug::NoGl1Invalidate || bug == FrameBug::NoLabelWait ||
                        bug == FrameBug::NoGl2Writeback;
  auto verdict = [&](bool broken) { return broken ? "refute" : "prove"; };
  out += fmt::format("prove visible h_up_{0} -> g_copy_{0}\n", m);
  out += fmt::format("{} visible g_copy_{} -> g_draw_{}_0\n", verdict(bug == FrameBug::NoSyncCpdma),
                     m, m);
  out += fmt::format("{} visible g_draw_{}_{} -> a_light_{}\n", verdict(bug_gbuf), m, last_draw, m);
  out += fmt::format("prove visible a_post_{0} -> g_compose_{0}\n", m);
  out += fmt::format("prove visible g_rb_{0} -> h_rb_{0}\n", m);
  out += fmt::format("prove ordered a_light_{0} -> g_compose_{0}\n", m);
  out += fmt::format("{} no-hazards\n", verdict(bug != FrameBug::None));
  out += "prove deadlock-free\n";
  return out;
}

}  // namespace syncproof::cli
