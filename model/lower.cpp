// The lowering of commands to hardware events: CP steps and work (draws, dispatches, copies,
// host accesses). Syncs, waits and signals are in lower_sync.cpp. Every constraint names the
// rule (model/rules.h) it comes from; constraints resting on an assumption carry its guard.
#include <fmt/format.h>

#include "model/lower_impl.h"
#include "model/targets.h"

namespace syncproof::model {

std::string_view to_string(Level l) {
  switch (l) {
    case Level::Icache:
      return "I$";
    case Level::Kcache:
      return "K$";
    case Level::Gl0:
      return "GL0";
    case Level::Gl1:
      return "GL1";
    case Level::Gl2:
      return "GL2";
    case Level::Mcache:
      return "M$";
    case Level::Cb:
      return "CB";
    case Level::CbMeta:
      return "CB-meta";
    case Level::Db:
      return "DB";
    case Level::DbMeta:
      return "DB-meta";
    case Level::So:
      return "SO";
    case Level::Mem:
      return "memory";
  }
  return "?";
}

std::string_view to_string(EventKind k) {
  switch (k) {
    case EventKind::PfpStep:
      return "pfp";
    case EventKind::MeStep:
      return "me";
    case EventKind::HostStep:
      return "host";
    case EventKind::StageStart:
      return "stage-start";
    case EventKind::StageEnd:
      return "stage-end";
    case EventKind::RbDone:
      return "rb-done";
    case EventKind::DmaStart:
      return "dma-start";
    case EventKind::DmaDone:
      return "dma-done";
    case EventKind::Access:
      return "access";
    case EventKind::Arrive:
      return "arrive";
    case EventKind::SyncStep:
      return "sync-step";
    case EventKind::BopStart:
      return "bop-start";
    case EventKind::CacheOp:
      return "cache-op";
    case EventKind::ValueWrite:
      return "value-write";
    case EventKind::Signal:
      return "signal";
    case EventKind::WaitDone:
      return "wait-done";
  }
  return "?";
}

std::string object_name(const Case& c, const MemAccess& m) {
  if (m.resource != kNoObject) return c.resources[m.resource].name;
  if (m.label != kNoObject) return c.labels[m.label].name;
  return fmt::format("0x{:X}", m.blo);
}

namespace detail {

Lowerer::Lowerer(const Case& c, const ModelConfig& cfg, LoweredProgram& out)
    : c_(c), cfg_(cfg), out_(out), qstate_(c.queues.size()) {
  out_.source = &c;
  out_.config = cfg;
  out_.commands.resize(c.queues.size());
  for (size_t q = 0; q < c.queues.size(); ++q) {
    out_.commands[q].resize(c.queues[q].commands.size());
    for (size_t i = 0; i < c.queues[q].commands.size(); ++i)
      out_.commands[q][i].queue = static_cast<uint32_t>(q), out_.commands[q][i].cmd = i;
  }
}

void Lowerer::lower_commands() {
  for (q_ = 0; q_ < c_.queues.size(); ++q_)
    for (cmd_ = 0; cmd_ < c_.queues[q_].commands.size(); ++cmd_)
      lower_command(c_.queues[q_].commands[cmd_]);
}

EventId Lowerer::ev(EventKind k, std::string what) {
  auto id = static_cast<EventId>(out_.events.size());
  auto [it, fresh] = texts_.try_emplace(std::move(what));
  if (fresh) it->second = std::make_shared<const std::string>(it->first);
  out_.events.emplace_back(k, q_, cmd_, it->second);
  lc().events.push_back(id);
  return id;
}

// A guarded constraint is kept only when its assumption has the guard's value in this
// configuration; it keeps the guard so the encoder can report which assumptions a proof used.
// Every constraint is strict: two events are never forced to the same time, so an execution is an
// interleaving and the executor's one-event-at-a-time exploration sees exactly these executions.
void Lowerer::order(EventId a, EventId b, Rule r, Guard g) {
  if (a == kNoEvent || b == kNoEvent) return;
  if (g.id && cfg_.assumptions.enabled(*g.id) != g.when) return;
  out_.orders.push_back({a, b, g, r});
}

void Lowerer::after_all(const std::vector<EventId>& as, EventId b, Rule r, Guard g) {
  for (EventId a : as) order(a, b, r, g);
}

// A frontier of category `c`: an event no earlier than every end event of that category so far.
// It is a free time bounded below only, so it adds no constraint on the ends themselves.
EventId Lowerer::frontier(Cat c, Rule r) {
  auto& st = qs();
  auto i = static_cast<int>(c);
  if (st.pending[i].empty()) return st.frontier[i];
  EventId f = ev(EventKind::SyncStep, "(earlier work done)");
  order(st.frontier[i], f, r);
  after_all(st.pending[i], f, r);
  st.pending[i].clear();
  st.frontier[i] = f;
  return f;
}

EventId Lowerer::cache_op(Level l, bool inv, bool wb, Coverage cov, std::string flag) {
  std::string what = fmt::format("{} {}", to_string(l),
                                 inv && wb ? "write-back+invalidate"
                                 : inv     ? "invalidate"
                                           : "write-back");
  EventId e = ev(EventKind::CacheOp, what);
  out_.cache_ops.push_back({e, l, inv, wb, cov, std::move(flag), std::nullopt});
  return e;
}

void Lowerer::mark_assumed(size_t first, AssumptionId a) {
  for (size_t i = first; i < out_.cache_ops.size(); ++i) out_.cache_ops[i].exists_under = a;
}

// The PFP step of a command (graphics queues), in queue order.
EventId Lowerer::pfp_step() {
  auto& st = qs();
  if (!graphics()) return kNoEvent;
  EventId p = ev(EventKind::PfpStep, "PFP processes the command");
  order(st.last_pfp, p, Rule::CpOrder);
  order(st.gate, p, Rule::QueueWait);
  for (EventId g : st.pfp_gates) order(g, p, Rule::PfpSyncMe);
  st.pfp_gates.clear();
  lc().pfp = p;
  st.last_pfp = p;
  return p;
}

// The ME step (MEC on compute queues): in queue order, never before the PFP's step.
EventId Lowerer::me_step(std::string what) {
  auto& st = qs();
  EventId m = ev(EventKind::MeStep, std::move(what));
  order(st.last_me, m, Rule::CpOrder);
  order(st.gate, m, Rule::QueueWait);
  if (lc().pfp != kNoEvent) order(lc().pfp, m, Rule::PfpAhead);
  lc().me = m;
  st.last_me = m;
  st.gate = kNoEvent;
  return m;
}

void Lowerer::begin_cp_step() {
  pfp_step();
  me_step(graphics() ? "ME processes the command" : "compute engine processes the command");
}

// A wait rule; what it polls is resolved once every write is known (resolve_waits).
void Lowerer::add_wait(EventId done, bool fence, uint32_t object, uint64_t value, Comparison cmp,
                       Rule rule, std::optional<uint64_t> address, unsigned bytes) {
  WaitRule w;
  w.wait = done, w.is_fence = fence, w.object = object, w.value = value, w.cmp = cmp;
  w.rule = rule;
  out_.waits.push_back(std::move(w));
  pending_waits_.push_back({out_.waits.size() - 1, address, bytes});
}

void Lowerer::lower_command(const Command& cmd) {
  if (c_.queues[q_].type == QueueType::Host) return lower_host(cmd);
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, WorkCmd>)
          lower_work(b);
        else if constexpr (std::is_same_v<T, SyncCmd>) {
          if (b.api == SyncApi::SyncTopOfPipeX)
            lower_top(b);
          else
            lower_bop_sync(b);
        } else if constexpr (std::is_same_v<T, BopWriteCmd>)
          lower_bop_write(b);
        else if constexpr (std::is_same_v<T, WaitValueCmd>)
          lower_wait_value(b);
        else if constexpr (std::is_same_v<T, SignalCmd>)
          lower_signal(b);
        else if constexpr (std::is_same_v<T, BarrierCmd>)
          lower_barrier(b);
        else
          lower_wait_fence(b);
      },
      cmd.body);
}

void Lowerer::lower_work(const WorkCmd& w) {
  const EventId prev_me = qs().last_me;
  // A queue-level Wait/WaitX before this command: me_step consumes it.
  const EventId prev_gate = qs().gate;
  begin_cp_step();
  auto& st = qs();
  EventId me = lc().me;
  auto stage = [&](Stage s, EventId after) {
    auto name = to_string(s);
    EventId b = ev(EventKind::StageStart, fmt::format("{} waves start", name));
    EventId e = ev(EventKind::StageEnd, fmt::format("{} waves end", name));
    order(after, b, Rule::WorkLaunch);
    order(b, e, Rule::StageSpan);
    gate(s == Stage::Vs ? Gate::Vs : s == Stage::Ps ? Gate::Ps : Gate::Cs, b);
    add_end(Cat::AllWork, e);
    add_end(s == Stage::Vs ? Cat::Vs : s == Stage::Ps ? Cat::Ps : Cat::Cs, e);
    return std::pair{b, e};
  };
  switch (w.kind) {
    case WorkKind::Draw:
    case WorkKind::IndirectDraw: {
      auto [vs_b, vs_e] = stage(Stage::Vs, me);
      auto [ps_b, ps_e] = stage(Stage::Ps, vs_b);
      order(vs_b, ps_b, Rule::PsAfterVs);
      EventId rb = ev(EventKind::RbDone, "render back-ends done");
      order(ps_e, rb, Rule::RbAfterPs);
      add_end(Cat::AllWork, rb);
      add_end(Cat::Rb, rb);
      for (const Access& a : w.accesses) {
        EventId lo = kNoEvent, hi = kNoEvent, end = kNoEvent;
        switch (a.kind) {
          case AccessKind::Index:
            lo = lc().pfp, hi = vs_e, end = vs_e;
            break;
          case AccessKind::Indirect:
            lo = lc().pfp, hi = me, end = me;
            break;
          case AccessKind::Rt:
          case AccessKind::Depth:
            lo = ps_b, hi = rb, end = rb;
            break;
          default:
            if (a.stage == Stage::Vs)
              lo = vs_b, hi = vs_e, end = vs_e;
            else
              lo = ps_b, hi = ps_e, end = ps_e;
        }
        lower_access(a, w, lo, hi, end);
        if (a.write && (is_rb_access(a.kind) || a.kind == AccessKind::Streamout)) {
          const Resource& r = c_.resources[a.resource];
          st.rb_writes.push_back(
              {a.kind == AccessKind::Streamout ? vs_e : rb, a.kind, r.address, r.address + r.size});
        }
      }
      break;
    }
    case WorkKind::Dispatch:
    case WorkKind::IndirectDispatch: {
      auto [cs_b, cs_e] = stage(Stage::Cs, me);
      // DispatchX volatile-L1 invalidations act on lines marked volatile; which lines are is
      // not public (research §2.4), so they cover none of the case's lines (conservative).
      if (w.dispatch_flags & dispatch::kInvalidateVolatileVectorL1)
        order(me,
              cache_op(Level::Gl0, true, false, {Coverage::Kind::Nothing, 0, 0},
                       "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1"),
              Rule::WorkLaunch);
      if (w.dispatch_flags & dispatch::kInvalidateVolatileScalarL1)
        order(me,
              cache_op(Level::Kcache, true, false, {Coverage::Kind::Nothing, 0, 0},
                       "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1"),
              Rule::WorkLaunch);
      for (const Access& a : w.accesses) {
        // The PFP fetches a graphics queue's indirect arguments, ahead of the ME (R-PFP-AHEAD).
        // A compute queue has no prefetch parser: the MEC reads them once it has processed the
        // previous command and, a queue-level wait blocking the whole queue, after that wait
        // (R-INDIRECT-ARGS, research §3.1).
        if (a.kind == AccessKind::Indirect)
          lower_access(a, w,
                       graphics()              ? lc().pfp
                       : prev_gate != kNoEvent ? prev_gate
                                               : prev_me,
                       me, me);
        else
          lower_access(a, w, cs_b, cs_e, cs_e);
      }
      break;
    }
    case WorkKind::Copy: {
      EventId issuer = w.pfp_dma && lc().pfp != kNoEvent ? lc().pfp : me;
      EventId b = ev(EventKind::DmaStart, w.pfp_dma ? "PFP CP DMA starts" : "CP DMA starts");
      EventId e = ev(EventKind::DmaDone, w.pfp_dma ? "PFP CP DMA done" : "CP DMA done");
      order(issuer, b, Rule::Dma);
      order(b, e, Rule::Dma);
      gate(Gate::Copy, b);
      add_end(w.pfp_dma && graphics() ? Cat::PfpDma : Cat::MeDma, e);
      for (const Access& a : w.accesses) lower_access(a, w, b, e, e);
      break;
    }
    case WorkKind::Host:
      break;  // host queues only (lower_host)
  }
}

void Lowerer::lower_access(const Access& a, const WorkCmd& w, EventId lo, EventId hi,
                           EventId stage_end) {
  const Resource& r = c_.resources[a.resource];
  const Rule span = a.kind == AccessKind::Indirect ? Rule::PfpReadsIndirect
                    : a.kind == AccessKind::Index  ? Rule::IndexFetch
                    : w.kind == WorkKind::Copy     ? Rule::Dma
                                                   : Rule::StageSpan;
  EventId e = ev(EventKind::Access, fmt::format("{} {} as {}", a.write ? "writes" : "reads", r.name,
                                                to_string(a.kind)));
  order(lo, e, span);
  order(e, hi, span);
  gate_access(a, e);
  if (a.kind == AccessKind::Index) add_end(Cat::IndexReads, e);
  uint64_t ulo = r.address / kUnitBytes, uhi = (r.address + r.size - 1) / kUnitBytes;
  auto add = [&](Plane p, EventId arrive, bool write) {
    MemAccess m{e,
                arrive,
                q_,
                cmd_,
                a.resource,
                ulo,
                uhi,
                r.address,
                r.address + r.size - 1,
                write,
                a.kind,
                a.stage,
                p,
                is_rb_access(a.kind),
                write ? write_path(a.kind, p) : read_path(a.kind, p),
                a.loc};
    lc().accesses.push_back(static_cast<uint32_t>(out_.accesses.size()));
    out_.accesses.push_back(m);
  };
  // Output-merger operations on one target complete in API order (R-RB-ORDER): an RB access
  // comes after the previous draw's RB accesses to it (its reads done, its writes landed).
  auto& last_rb = qs().last_rb_write;
  if (is_rb_access(a.kind)) {
    auto it = last_rb.find(a.resource);
    if (it != last_rb.end()) order(it->second, e, Rule::RbOrder);
    if (!a.write) last_rb[a.resource] = e;
  }
  EventId arrive = kNoEvent;
  if (a.write) {
    arrive = ev(EventKind::Arrive, fmt::format("{} data reaches {}", r.name,
                                               to_string(write_path(a.kind, Plane::Data)[0])));
    order(e, arrive, Rule::WriteArrives);
    switch (a.kind) {
      case AccessKind::Uav:
        order(arrive, stage_end, Rule::WaveEndStores,
              Guard{AssumptionId::WaveEndStoresInGl2, true});
        add_end(Cat::Arrivals, arrive);
        add_end(a.stage == Stage::Vs   ? Cat::VsStores
                : a.stage == Stage::Ps ? Cat::PsStores
                                       : Cat::CsStores,
                arrive);
        break;
      case AccessKind::Rt:
      case AccessKind::Depth:
        order(arrive, stage_end, Rule::RbAfterPs);
        last_rb[a.resource] = arrive;
        break;
      case AccessKind::Streamout:
        // Stream-out data sits in the stream-out path until STREAMOUT_FLUSH (seed 000).
        order(arrive, stage_end, Rule::StageSpan);
        break;
      default:
        order(arrive, stage_end, span);
        break;  // copies, host
    }
  }
  add(Plane::Data, arrive, a.write);
  if (r.compressed && has_meta_plane(a.kind, a.write)) add(Plane::Meta, arrive, a.write);
  // A shader store to a compressed texture is a read-modify-write of its metadata in GL2, which
  // reads the metadata through M$ (R-SHADER-WRITE-META: PAL invalidates GLM for shader-write
  // destinations, research §5.3): a stale M$ line is a hazard for the write too.
  if (r.compressed && a.write && a.kind == AccessKind::Uav) add(Plane::Meta, kNoEvent, false);
}

void Lowerer::lower_host(const Command& cmd) {
  auto& st = qs();
  const EventId prev = st.last_host;
  EventId h = ev(EventKind::HostStep, "CPU executes the command");
  order(prev, h, Rule::HostOrder);
  lc().me = h;
  st.last_host = h;
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, WorkCmd>) {
          for (const Access& a : b.accesses) lower_access(a, b, prev, h, h);
        } else if constexpr (std::is_same_v<T, SignalCmd>) {
          EventId s = ev(EventKind::Signal,
                         fmt::format("CPU signals {} = {}", c_.fences[b.fence].name, b.value));
          // ID3D12Fence::Signal sets the value before it returns: the CPU's next command comes
          // after it (R-HOST-ORDER).
          order(h, s, Rule::HostOrder);
          st.last_host = s;
          signals_.push_back({s, b.fence, b.value});
        } else if constexpr (std::is_same_v<T, WaitFenceCmd>) {
          EventId w = ev(EventKind::WaitDone, fmt::format("CPU wait for {} >= {} satisfied",
                                                          c_.fences[b.fence].name, b.value));
          order(w, h, Rule::HostOrder);
          order(prev, w, Rule::HostOrder);
          add_wait(w, true, b.fence, b.value, Comparison::GreaterEqual, Rule::QueueWait);
        }
      },
      cmd.body);
}

}  // namespace detail

LoweredProgram lower(const Case& c, const ModelConfig& config) {
  return StagedLowering(c, config).finish();
}

StagedLowering::StagedLowering(const Case& c, const ModelConfig& config)
    : config_(config),
      p_(std::make_unique<LoweredProgram>()),
      lowerer_(std::make_unique<detail::Lowerer>(c, config_, *p_)) {
  lowerer_->lower_commands();
}

StagedLowering::~StagedLowering() = default;

size_t StagedLowering::events() const {
  return p_->events.size();
}

LoweredProgram StagedLowering::finish() {
  lowerer_->analyse_waits();
  lowerer_.reset();
  LoweredProgram p = std::move(*p_);
  // The lists grew by doubling: their spare capacity lives as long as the program, beside every
  // engine's structures (at 50,000 commands, about 20 MB of the engines' peaks).
  p.events.shrink_to_fit(), p.orders.shrink_to_fit(), p.waits.shrink_to_fit();
  p.cache_ops.shrink_to_fit(), p.accesses.shrink_to_fit();
  for (auto& q : p.commands) q.shrink_to_fit();
  return p;
}

ModelConfig config_for(const Case& c, std::optional<Profile> profile_override,
                       const std::vector<std::pair<bool, std::string>>& assume_overrides,
                       const std::vector<std::string>& target_overrides) {
  ModelConfig cfg;
  if (c.profile)
    if (auto p = find_profile(*c.profile)) cfg.profile = *p;
  if (profile_override) cfg.profile = *profile_override;
  cfg.assumptions = AssumptionSet::defaults(cfg.profile);
  for (const auto& a : c.assumptions)
    if (auto id = find_assumption(a.id)) cfg.assumptions.set(*id, a.enable);
  for (const auto& [on, name] : assume_overrides)
    if (auto id = find_assumption(name)) cfg.assumptions.set(*id, on);
  cfg.target = target_for(c);
  for (const std::string& t : target_overrides) apply_target_option(cfg.target, t);
  return cfg;
}

}  // namespace syncproof::model
