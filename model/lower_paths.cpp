// Which cache levels each kind of access goes through (research §2.2), and which lines a ranged
// cache operation covers (research §1.3; SEMANTICS.md §Ranges).
#include <fmt/format.h>

#include "model/lower_impl.h"

namespace syncproof::model::detail {
namespace {

Path path_of(std::initializer_list<Level> ls) {
  Path p;
  for (Level l : ls) p.push(l);
  return p;
}

uint64_t sat_add(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

// Render-back-end accesses read and write through the same caches: CB/DB for data, their
// metadata caches for the compression metadata, then GL2.
Path rb_path(AccessKind k, Plane p) {
  const bool color = k == AccessKind::Rt;
  if (p == Plane::Meta)
    return path_of({color ? Level::CbMeta : Level::DbMeta, Level::Gl2, Level::Mem});
  return path_of({color ? Level::Cb : Level::Db, Level::Gl2, Level::Mem});
}

}  // namespace

Path read_path(AccessKind k, Plane p) {
  using L = Level;
  if (is_rb_access(k)) return rb_path(k, p);
  if (p == Plane::Meta) return path_of({L::Mcache, L::Gl2, L::Mem});
  switch (k) {
    case AccessKind::Srv:
    case AccessKind::Uav:
    case AccessKind::Vertex:
      return path_of({L::Gl0, L::Gl1, L::Gl2, L::Mem});
    case AccessKind::Cbv:
      return path_of({L::Kcache, L::Gl1, L::Gl2, L::Mem});
    // Instruction fetch: I$ -> GL1 -> GL2. Whether I$ misses go through GL1 is an inference
    // (research §2.2); keeping GL1 on the path can only add staleness (conservative).
    case AccessKind::ShaderCode:
      return path_of({L::Icache, L::Gl1, L::Gl2, L::Mem});
    case AccessKind::Index:
    case AccessKind::Indirect:
    case AccessKind::CopySrc:
      return path_of({L::Gl2, L::Mem});
    case AccessKind::Host:
      return path_of({L::Mem});
    case AccessKind::Rt:
    case AccessKind::Depth:  // rb_path
    case AccessKind::CopyDst:
    case AccessKind::Streamout:
    case AccessKind::Label:
      break;  // not readable kinds
  }
  return path_of({L::Gl2, L::Mem});
}

Path write_path(AccessKind k, Plane p) {
  using L = Level;
  if (is_rb_access(k)) return rb_path(k, p);
  if (p == Plane::Meta) return path_of({L::Gl2, L::Mem});  // GL2 updates metadata for shader stores
  switch (k) {
    case AccessKind::Uav:
    case AccessKind::CopyDst:
    case AccessKind::Label:  // the value's path through GL2 (R-BOP-VALUE-PATH)
      return path_of({L::Gl2, L::Mem});
    case AccessKind::Streamout:
      return path_of({L::So, L::Gl2, L::Mem});
    case AccessKind::Host:
      return path_of({L::Mem});
    default:
      break;  // not writable kinds
  }
  return path_of({L::Gl2, L::Mem});
}

bool has_meta_plane(AccessKind k, bool write) {
  switch (k) {
    case AccessKind::Srv:
      return !write;
    case AccessKind::Uav:
    case AccessKind::Rt:
    case AccessKind::Depth:
      return true;
    default:
      return false;
  }
}

bool is_rb_access(AccessKind k) {
  return k == AccessKind::Rt || k == AccessKind::Depth;
}

// A ranged operation acts on whole lines of its level (`line` bytes), and the hardware's range
// is in 256-byte units that PAL widens outward (research §1.3, §2.1), so the exact range and the
// widened one are both admissible encodings of the same call. What we count is what holds under
// both: RANGE covers every line the exact range touches (the widened range touches them too);
// MARGIN covers only the lines that are the first or last line under both encodings — a byte
// near an end of an unaligned range can sit in a middle line of the widened range, which a
// FIRST_LAST operation never touches.
Coverage coverage_for_range(const SyncRange& r, bool margin, uint64_t line) {
  Coverage c;
  if (r.all) {
    c.kind = margin ? Coverage::Kind::Nothing : Coverage::Kind::All;
    return c;
  }
  if (r.size == 0) {
    c.kind = Coverage::Kind::Nothing;
    return c;
  }
  const uint64_t per_line = line / kUnitBytes;
  const uint64_t end = sat_add(r.base, r.size);                   // exclusive
  const uint64_t first = r.base / line, last = (end - 1) / line;  // line indices, exact range
  auto units = [&](uint64_t lo_line, uint64_t hi_line) {
    Coverage u;
    u.kind = Coverage::Kind::Range;
    u.lo = lo_line * per_line;
    u.hi = sat_add(hi_line * per_line, per_line - 1);
    return u;
  };
  if (!margin) return units(first, last);
  const uint64_t wide_base = r.base / kCoherBytes * kCoherBytes;
  const uint64_t wide_end =
      end % kCoherBytes == 0 ? end : sat_add(end / kCoherBytes * kCoherBytes, kCoherBytes);
  const uint64_t wide_first = wide_base / line, wide_last = (wide_end - 1) / line;
  const bool first_kept = first == wide_first || first == wide_last;
  const bool last_kept = last == wide_first || last == wide_last;
  if (first_kept && last_kept && first != last) {
    c = units(first, last);
    c.kind = Coverage::Kind::Margin;
    c.span = static_cast<uint8_t>(per_line);
    if (last - first == 1) c.kind = Coverage::Kind::Range;  // the two lines are the whole range
    return c;
  }
  if (first_kept) return units(first, first);
  if (last_kept) return units(last, last);
  c.kind = Coverage::Kind::Nothing;
  return c;
}

std::vector<GcrOp> gcr_ops(const SyncFields& f, const SyncRange& r) {
  std::vector<GcrOp> ops;
  const Coverage all{};
  const Coverage nothing{Coverage::Kind::Nothing, 0, 0};
  switch (f.icache) {
    case IcacheSel::None:
      break;
    case IcacheSel::All:
      ops.push_back({Level::Icache, true, false, all, "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE"});
      break;
    case IcacheSel::Range:
      ops.push_back({Level::Icache, true, false, coverage_for_range(r, false, kIcacheLineBytes),
                     "D3D12XBOX_SYNC_FLAG_ICACHE_RANGE"});
      break;
    case IcacheSel::Margin:
      ops.push_back({Level::Icache, true, false, coverage_for_range(r, true, kIcacheLineBytes),
                     "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN"});
      break;
  }
  if (f.kcache_inv)
    ops.push_back({Level::Kcache, true, false, all, "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE"});
  if (f.vcache_inv)
    ops.push_back({Level::Gl0, true, false, all, "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE"});
  if (f.gl1_inv) {
    Coverage c = all;
    std::string name = "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE";
    switch (f.gl1_range) {
      case Gl1RangeSel::All:
        break;
      case Gl1RangeSel::Reserved:
        c = nothing;
        break;
      case Gl1RangeSel::Range:
        c = coverage_for_range(r, false, kLineBytes), name += " | GL1_RANGE";
        break;
      case Gl1RangeSel::Margin:
        c = coverage_for_range(r, true, kLineBytes), name += " | GL1_MARGIN";
        break;
    }
    ops.push_back({Level::Gl1, true, false, c, name});
  }
  if (f.gl2_inv || f.gl2_wb) {
    Coverage c = all;
    std::string name = f.gl2_inv && f.gl2_wb ? "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK | GL2_INVALIDATE"
                       : f.gl2_inv           ? "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE"
                                             : "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK";
    switch (f.gl2_range) {
      case Gl2RangeSel::All:
        break;
      // Which lines are "volatile" is not public (research §2.4, §8.2): conservatively none
      // of the case's resources.
      case Gl2RangeSel::Volatile:
        c = nothing, name += " | GL2_VOLATILE";
        break;
      case Gl2RangeSel::Range:
        c = coverage_for_range(r, false, kLineBytes), name += " | GL2_RANGE";
        break;
      case Gl2RangeSel::Margin:
        c = coverage_for_range(r, true, kLineBytes), name += " | GL2_MARGIN";
        break;
    }
    ops.push_back({Level::Gl2, f.gl2_inv, f.gl2_wb, c, name});
  }
  // "Unshared" lines belong to unshared-MTYPE pages (research §2.4): conservatively none.
  if (f.gl2_inv_unshared)
    ops.push_back(
        {Level::Gl2, true, false, nothing, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED"});
  if (f.mcache_inv)
    ops.push_back({Level::Mcache, true, false, all, "D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE"});
  // M$ is read-only (research §2.1: PAL "GLM_WB unimplemented in HW"): a write-back moves no
  // data; kept as an operation so traces show it.
  if (f.mcache_wb)
    ops.push_back({Level::Mcache, false, true, all, "D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK"});
  return ops;
}

}  // namespace syncproof::model::detail

namespace syncproof::model {

bool makes_cache_operations(const SyncFields& f, bool top_of_pipe) {
  if (!detail::gcr_ops(f, SyncRange{}).empty()) return true;
  if (top_of_pipe) return f.color_inv || f.depth_inv;
  return f.color_data_flush || f.color_meta_flush || f.depth_data_flush || f.depth_meta_flush ||
         f.streamout_flush;
}

}  // namespace syncproof::model

namespace syncproof::model::detail {

int gcr_tier(Level l) {
  switch (l) {
    case Level::Gl2:
      return 0;
    case Level::Gl1:
    case Level::Mcache:
      return 1;
    default:
      return 2;
  }
}

}  // namespace syncproof::model::detail
