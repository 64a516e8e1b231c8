#include "synth/barrier.h"

#include <fmt/format.h>

#include <sstream>

namespace syncproof::synth {

using namespace model;

namespace {

constexpr AccessKind kKinds[] = {AccessKind::Srv,        AccessKind::Cbv,     AccessKind::Uav,
                                 AccessKind::Vertex,     AccessKind::Index,   AccessKind::Indirect,
                                 AccessKind::ShaderCode, AccessKind::Rt,      AccessKind::Depth,
                                 AccessKind::CopySrc,    AccessKind::CopyDst, AccessKind::Streamout,
                                 AccessKind::Host};
constexpr Stage kStages[] = {Stage::Vs, Stage::Ps, Stage::Cs, Stage::Cp, Stage::Dma, Stage::Host};

// The stage an access happens in by default (docs/CASE-LANGUAGE.md's table): cs for a shader
// kind, else its one stage.
Stage default_stage(AccessKind k) {
  return shader_kind(k) ? Stage::Cs : fixed_stage(k);
}
bool stage_allowed(AccessKind k, Stage s) {
  if (shader_kind(k)) return s == Stage::Vs || s == Stage::Ps || s == Stage::Cs;
  return s == fixed_stage(k);
}
bool graphics_only(const AccessSpec& a) {
  return a.stage == Stage::Vs || a.stage == Stage::Ps || a.kind == AccessKind::Index ||
         a.kind == AccessKind::Rt || a.kind == AccessKind::Depth ||
         a.kind == AccessKind::Streamout || a.kind == AccessKind::Vertex;
}
bool host_access(const AccessSpec& a) {
  return a.kind == AccessKind::Host;
}

std::string queue_word(QueueType q) {
  return q == QueueType::Graphics ? "graphics" : q == QueueType::Compute ? "compute" : "host";
}

// The work command of an access on a queue of type q, labelled `label`.
std::string work_line(const std::string& label, const AccessSpec& a, QueueType q) {
  const std::string how =
      fmt::format("{} res as {}", a.write ? "writes" : "reads", to_string(a.kind));
  switch (a.kind) {
    case AccessKind::Host:
      return fmt::format("{}: Host {}", label, how);
    case AccessKind::CopySrc:
    case AccessKind::CopyDst:
      return fmt::format("{}: CopyBufferRegion {}", label, how);
    case AccessKind::Index:
      return fmt::format("{}: DrawIndexedInstanced {}", label, how);
    case AccessKind::Indirect:
      return fmt::format("{}: ExecuteIndirect {} args res", label,
                         q == QueueType::Graphics ? "draw" : "dispatch");
    default:
      break;
  }
  if (a.stage == Stage::Cs) return fmt::format("{}: Dispatch {}", label, how);
  const bool stage_word = a.kind == AccessKind::Srv || a.kind == AccessKind::Cbv ||
                          a.kind == AccessKind::Uav || a.kind == AccessKind::ShaderCode;
  return fmt::format("{}: Draw {}{}", label, how,
                     stage_word ? fmt::format(" in {}", to_string(a.stage)) : "");
}

}  // namespace

std::optional<AccessSpec> parse_access(std::string_view text, bool producer, std::string* error) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  std::optional<Stage> stage;
  std::optional<AccessKind> kind;
  std::optional<bool> write;
  for (const std::string& w : words) {
    bool known = false;
    for (Stage s : kStages)
      if (w == to_string(s) && !stage && !kind) stage = s, known = true;
    if (known) continue;
    for (AccessKind k : kKinds)
      if (w == to_string(k) && !kind) kind = k, known = true;
    if (known) continue;
    if ((w == "write" || w == "read") && kind && !write) {
      write = w == "write";
      continue;
    }
    *error = fmt::format(
        "'{}': expected [STAGE] KIND [read|write], STAGE one of vs ps cs cp dma host, KIND one "
        "of srv cbv uav vertex index indirect shader-code rt depth copy-src copy-dst streamout "
        "host; '{}' is not understood here",
        text, w);
    return std::nullopt;
  }
  if (!kind && stage == Stage::Host) kind = AccessKind::Host;  // "host": the stage and the kind
  if (!kind) {
    *error = fmt::format("'{}': no access kind (srv, uav, rt, ...)", text);
    return std::nullopt;
  }
  AccessSpec a;
  a.kind = *kind;
  a.stage = stage.value_or(default_stage(*kind));
  a.write = write.value_or(producer || !can_read(*kind));
  if (!stage_allowed(a.kind, a.stage)) {
    *error = fmt::format("'{}': a {} access does not happen in {}", text, to_string(a.kind),
                         to_string(a.stage));
    return std::nullopt;
  }
  if (a.write && !can_write(a.kind)) {
    *error = fmt::format("'{}': {} is read only", text, to_string(a.kind));
    return std::nullopt;
  }
  if (!a.write && !can_read(a.kind)) {
    *error = fmt::format("'{}': {} is write only", text, to_string(a.kind));
    return std::nullopt;
  }
  if (producer && !a.write) {
    *error = fmt::format("'{}': the producer must write", text);
    return std::nullopt;
  }
  return a;
}

std::string access_words(const AccessSpec& a, bool producer) {
  std::string s = fmt::format("{} {}", to_string(a.stage), to_string(a.kind));
  if (!producer && a.write && can_read(a.kind)) s += " write";
  return s;
}

std::optional<Resolved> resolve(const BarrierQuery& q, std::string* error) {
  Resolved r{};
  auto fits = [&](const AccessSpec& a, QueueType t, const char* who) {
    if (host_access(a) != (t == QueueType::Host)) {
      *error = fmt::format(
          "the {} ({}) cannot run on a {} queue: host accesses run on a host "
          "queue, GPU accesses on graphics or compute",
          who, access_words(a), queue_word(t));
      return false;
    }
    if (t == QueueType::Compute && graphics_only(a)) {
      *error = fmt::format("the {} ({}) is graphics work: it cannot run on a compute queue", who,
                           access_words(a));
      return false;
    }
    return true;
  };
  r.pq = q.producer_queue.value_or(host_access(q.producer) ? QueueType::Host : QueueType::Graphics);
  if (q.consumer_queue)
    r.cq = *q.consumer_queue;
  else if (host_access(q.consumer))
    r.cq = QueueType::Host;
  else
    r.cq = r.pq == QueueType::Host ? QueueType::Graphics : r.pq;
  if (!fits(q.producer, r.pq, "producer") || !fits(q.consumer, r.cq, "consumer"))
    return std::nullopt;
  // Two host accesses are one CPU timeline; two GPU queues of one type asked for are one queue.
  r.cross = r.pq != r.cq;
  return r;
}

std::string barrier_case_text(const BarrierQuery& q, const Resolved& r) {
  std::string s =
      fmt::format("case \"{} -> {}{}\"\n", access_words(q.producer, true), access_words(q.consumer),
                  r.cross ? fmt::format(" ({} -> {})", queue_word(r.pq), queue_word(r.cq)) : "");
  if (!q.profile.empty()) s += fmt::format("profile {}\n", q.profile);
  // Nothing is known of what touched the resource before the producer: the consumer's render
  // back-end cache may hold its lines from any earlier pass, so the barrier must not rest on
  // R-RB-FILL-ON-ACCESS (which counts only the fills the case shows).
  if (q.consumer.kind == AccessKind::Rt || q.consumer.kind == AccessKind::Depth)
    s += "assume -A-RB-FILL-ON-ACCESS\n";
  if (!q.target.empty()) s += fmt::format("target {}\n", q.target);
  if (q.rb_coherent) s += fmt::format("target gl2-rb-coherent {}\n", *q.rb_coherent ? "yes" : "no");
  const std::string pname = r.cross ? "producer" : "q", cname = r.cross ? "consumer" : "q";
  s += fmt::format("queue {} {}\n", pname, queue_word(r.pq));
  if (r.cross) s += fmt::format("queue {} {}\n", cname, queue_word(r.cq));
  const bool texture = q.producer.kind == AccessKind::Rt || q.producer.kind == AccessKind::Depth ||
                       q.consumer.kind == AccessKind::Rt || q.consumer.kind == AccessKind::Depth;
  s += fmt::format("{} res 0x100000 0x10000\n", texture ? "texture" : "buffer");
  if (r.cross) s += "fence f\n";
  s += fmt::format("on {}:\n  {}\n", pname, work_line("produce", q.producer, r.pq));
  if (r.cross) {
    s += r.pq == QueueType::Host ? "  Signal(f, 1)\n" : "  Signal2X(f, 1, NONE)\n";
    s += fmt::format("on {}:\n", cname);
  }
  s += fmt::format("  {}\n", work_line("consume", q.consumer, r.cq));
  if (!q.consumer.write) s += "prove visible produce -> consume\n";
  s += "prove no-hazards\n";
  if (r.cross) s += "prove deadlock-free\n";
  return s;
}

std::vector<AccessSpec> table_producers() {
  std::vector<AccessSpec> out;
  out.push_back({Stage::Cs, AccessKind::Uav, true});
  out.push_back({Stage::Ps, AccessKind::Uav, true});
  for (AccessKind k : kKinds)
    if (can_write(k) && k != AccessKind::Uav) out.push_back({default_stage(k), k, true});
  return out;
}

std::vector<AccessSpec> table_consumers() {
  std::vector<AccessSpec> out;
  for (AccessKind k : kKinds)
    if (can_read(k)) {
      out.push_back({default_stage(k), k, false});
      if (k == AccessKind::Srv || k == AccessKind::Cbv) out.push_back({Stage::Ps, k, false});
    }
  for (AccessKind k : kKinds)
    if (can_write(k)) out.push_back({default_stage(k), k, true});
  return out;
}

}  // namespace syncproof::synth
