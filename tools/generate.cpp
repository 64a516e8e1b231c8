#include "tools/generate.h"

#include <fmt/format.h>

#include <random>
#include <vector>

namespace syncproof::cli {

std::string generate_stream(const StreamShape& s) {
  std::mt19937_64 rng(s.seed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int nq = std::max(1, s.queues);
  const int per_queue_buffers = std::max(2, s.commands / (nq * 6));
  std::string out = fmt::format("# generated: seed {}, {} commands, {} queues\ncase \"stream\"\n",
                                s.seed, s.commands, nq);
  std::vector<std::string> qname;
  for (int q = 0; q < nq; ++q) {
    qname.push_back(q == 0 ? "gfx" : fmt::format("acs{}", q));
    out += fmt::format("queue {} {}\n", qname[q], q == 0 ? "graphics" : "compute");
  }
  uint64_t addr = 0x100000;
  for (int q = 0; q < nq; ++q)
    for (int b = 0; b < per_queue_buffers; ++b, addr += 0x10000)
      out += fmt::format("buffer {}_b{} 0x{:X} 0x4000\n", qname[q], b, addr);
  out += "texture rt 0x40000000 0x400000\n";
  for (int q = 0; q < nq; ++q) out += fmt::format("fence f{}\n", q);

  std::vector<std::string> body(nq);
  // Buffers read or written since the queue's last barrier: a later conflicting access needs one.
  std::vector<std::vector<bool>> read(nq, std::vector<bool>(per_queue_buffers)),
      written(nq, std::vector<bool>(per_queue_buffers));
  std::vector<uint64_t> fence_value(nq, 0);
  const std::string all = "0, D3D12XBOX_FLUSH_RANGE_ALL";
  for (int i = 0; i < s.commands;) {
    int q = pick(nq);
    std::string& b = body[q];
    int dst = pick(per_queue_buffers), src = pick(per_queue_buffers);
    if (src == dst) src = (src + 1) % per_queue_buffers;
    // A dispatch that reads one of the queue's buffers and writes another.
    if (s.synchronized && (written[q][src] || written[q][dst] || read[q][dst])) {
      b += fmt::format("  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})\n", all);
      b += fmt::format("  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, {})\n", all);
      read[q].assign(per_queue_buffers, false);
      written[q].assign(per_queue_buffers, false);
      i += 2;
    }
    b += fmt::format("  Dispatch reads {0}_b{1} as srv, writes {0}_b{2} as uav\n", qname[q], src,
                     dst);
    read[q][src] = true;
    written[q][dst] = true;
    ++i;
    if (q == 0 && pick(4) == 0) {
      b += "  Draw writes rt as rt\n";
      ++i;
    }
    // Now and then the queue signals its fence and another queue waits for it.
    if (nq > 1 && pick(10) == 0) {
      b += fmt::format("  Signal(f{}, {})\n", q, ++fence_value[q]);
      int other = (q + 1 + pick(nq - 1)) % nq;
      body[other] += fmt::format("  Wait(f{}, {})\n", q, fence_value[q]);
      i += 2;
    }
  }
  for (int q = 0; q < nq; ++q) out += fmt::format("\non {}:\n{}", qname[q], body[q]);
  out += fmt::format("\n{} no-hazards\nprove deadlock-free\n", s.synchronized ? "prove" : "check");
  return out;
}

}  // namespace syncproof::cli
