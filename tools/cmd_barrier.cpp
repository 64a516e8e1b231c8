// `syncproof barrier --producer "cs uav" --consumer "ps srv" [...]`: the cheapest proved barrier
// between two accesses (synth/barrier.h), as C++ calls to paste and as a case-file snippet, with
// the assumptions its proof rests on; `--table` for every producer x consumer (docs/BARRIERS.md
// is its output, and a CTest fails when it is stale).
#include <fmt/format.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <set>

#include "lang/parse.h"
#include "model/costs.h"
#include "model/d3d12.h"
#include "model/targets.h"
#include "synth/barrier.h"
#include "synth/changes.h"
#include "synth/flag_ops.h"
#include "synth/text.h"
#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/options.h"
#include "tools/synth_engines.h"
#include "tools/workers.h"

namespace syncproof::cli {

namespace {

struct BarrierArgs {
  std::string producer, consumer, producer_queue, consumer_queue, profile;
  std::vector<std::string> costs, target;
  bool table = false;
  unsigned jobs = 0;
  size_t budget = 3000;
  unsigned timeout_ms = 20000;
};

std::optional<model::QueueType> queue_type(const std::string& s, std::string* error) {
  if (s == "graphics") return model::QueueType::Graphics;
  if (s == "compute") return model::QueueType::Compute;
  if (s == "host") return model::QueueType::Host;
  *error = fmt::format("unknown queue type '{}' (graphics, compute, host)", s);
  return std::nullopt;
}

// The target a query runs on (model/targets.h).
model::Target query_target(const synth::BarrierQuery& q) {
  model::Target t;
  if (!q.target.empty()) model::apply_target(t, q.target, "");
  if (q.rb_coherent) model::apply_target(t, "gl2-rb-coherent", *q.rb_coherent ? "yes" : "no");
  return t;
}

// One answer: the fixed case, its text, and what the proof assumed.
struct Answer {
  synth::FixResult fix;
  model::Case original;
  std::string text, fixed_text;  // the case without and with the barrier
  std::vector<std::string> assumptions;
  std::string error;  // the query's case does not parse (a bug) or the fix was not written
};

Answer solve(const synth::BarrierQuery& q, const synth::Resolved& r, const synth::FixOptions& opt) {
  Answer a;
  a.text = synth::barrier_case_text(q, r);
  lang::ParseResult pr = lang::parse_case("barrier.sync", a.text);
  if (pr.has_errors()) {
    a.error = "internal error: the query's case does not parse:\n" + lang::render_all(pr);
    return a;
  }
  a.original = pr.c;
  std::vector<size_t> goals;
  for (size_t i = 0; i < pr.c.properties.size(); ++i) goals.push_back(i);
  a.fix = synth::fix_case(pr.c, goals, {}, opt);
  if (a.fix.status == synth::FixResult::Status::Nothing) {
    a.fixed_text = a.text;
    a.fix.verification = opt.verify(pr.c);
  } else if (a.fix.status == synth::FixResult::Status::Fixed) {
    const synth::EditedText t =
        synth::edit_text(pr.c, a.text, a.fix.changes, a.fix.fixed, opt.costs);
    if (!t.error.empty()) a.error = t.error;
    a.fixed_text = synth::join_source(t.text);
  }
  std::set<std::string> as;
  for (const auto& res : a.fix.verification.smt.results)
    if (const auto* p = std::get_if<properties::Proved>(&res.verdict))
      as.insert(p->assumptions.begin(), p->assumptions.end());
  a.assumptions.assign(as.begin(), as.end());
  return a;
}

bool solved(const Answer& a) {
  return a.error.empty() && (a.fix.status == synth::FixResult::Status::Fixed ||
                             a.fix.status == synth::FixResult::Status::Nothing);
}

// The commands of the barrier on one queue of the fixed case: everything but the two accesses.
std::vector<std::string> cpp_calls(const model::Case& c, size_t q, const std::string& list,
                                   const std::string& queue) {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
    const model::Command& cmd = c.queues[q].commands[i];
    if (std::holds_alternative<model::WorkCmd>(cmd.body)) continue;
    if (synth::bare_sync(cmd))
      out.push_back("// why: " + synth::step_why(c, static_cast<uint32_t>(q), i));
    const bool host = c.queues[q].type == model::QueueType::Host;
    if (const auto* s = std::get_if<model::SignalCmd>(&cmd.body)) {
      if (host)
        out.push_back(fmt::format("pFence->Signal({});", s->value));
      else if (s->xbox)
        out.push_back(fmt::format("{}->Signal2X(pFence, {}, {});", queue, s->value,
                                  synth::sync_word_text(s->flags)));
      else
        out.push_back(fmt::format("{}->Signal(pFence, {});", queue, s->value));
      continue;
    }
    if (const auto* w = std::get_if<model::WaitFenceCmd>(&cmd.body)) {
      if (host)
        out.push_back(fmt::format(
            "pFence->SetEventOnCompletion({}, hEvent); WaitForSingleObject(hEvent, INFINITE);",
            w->value));
      else if (w->xbox)
        out.push_back(fmt::format("{}->WaitX(pFence, {}, {});", queue, w->value,
                                  synth::sync_word_text(w->flags)));
      else
        out.push_back(fmt::format("{}->Wait(pFence, {});", queue, w->value));
      continue;
    }
    out.push_back(fmt::format("{}->{};", list, synth::command_source(c, cmd, true)));
  }
  return out;
}

std::string queue_name(model::QueueType t) {
  return t == model::QueueType::Graphics  ? "graphics"
         : t == model::QueueType::Compute ? "compute"
                                          : "host";
}

void print_answer(std::ostream& out, const synth::BarrierQuery& q, const synth::Resolved& r,
                  const Answer& a) {
  out << fmt::format("barrier: {} -> {}, {}{}{}\n", synth::access_words(q.producer, true),
                     synth::access_words(q.consumer),
                     r.cross
                         ? fmt::format("{} queue -> {} queue", queue_name(r.pq), queue_name(r.cq))
                         : fmt::format("one {} queue", queue_name(r.pq)),
                     ", target " + model::describe(query_target(q)),
                     q.profile.empty() ? "" : ", profile " + q.profile);
  if (!a.error.empty()) {
    out << a.error << "\n";
    return;
  }
  if (!solved(a)) {
    out << fmt::format("no barrier: {}\n", a.fix.why);
    return;
  }
  const model::Case& c = a.fix.status == synth::FixResult::Status::Fixed ? a.fix.fixed : a.original;
  const int cost = a.fix.before + a.fix.cost;
  out << fmt::format(
      "cheapest proved barrier: cost {} (model/COSTS.md); {} proved by both "
      "engines\n",
      cost, a.original.properties.size() == 1 ? "its property" : "every property");
  out << "\nC++ (between the producer's work and the consumer's):\n";
  if (r.cross) {
    const bool ph = r.pq == model::QueueType::Host, ch = r.cq == model::QueueType::Host;
    out << fmt::format("  // {} ({}), after the producer:\n", ph ? "CPU" : "producer queue",
                       queue_name(r.pq));
    for (const auto& l : cpp_calls(c, 0, "pProducerList", "pProducerQueue"))
      out << "  " << l << "\n";
    out << fmt::format("  // {} ({}), before the consumer:\n", ch ? "CPU" : "consumer queue",
                       queue_name(r.cq));
    for (const auto& l : cpp_calls(c, 1, "pConsumerList", "pConsumerQueue"))
      out << "  " << l << "\n";
  } else {
    const auto calls = cpp_calls(c, 0, "pCommandList", "pQueue");
    if (calls.empty()) out << "  // nothing: the model orders and shows the write without one\n";
    for (const auto& l : calls) out << "  " << l << "\n";
  }
  out << "\ncase file:\n";
  for (const std::string& l : synth::split_source(a.fixed_text).lines) out << "  " << l << "\n";
  out << fmt::format("\nassumptions the proof rests on (model/SEMANTICS.md): {}\n",
                     a.assumptions.empty() ? std::string("none")
                                           : fmt::format("{}", fmt::join(a.assumptions, ", ")));
}

std::string cell(const Answer& a);

// The barrier is the cheapest on the query's target. GL2's coherence between the render back-ends
// and the other clients is the one fact targets differ in (model/targets.h): where the other value
// needs a different barrier, say which, where that value holds and why.
void print_other_targets(std::ostream& out, const synth::BarrierQuery& q, const synth::Resolved& r,
                         const Answer& a, const synth::FixOptions& opt) {
  // The fact matters only when one access is the render back-ends' and the other is not.
  const auto rb = [](const synth::AccessSpec& s) {
    return s.kind == model::AccessKind::Rt || s.kind == model::AccessKind::Depth;
  };
  if (rb(q.producer) == rb(q.consumer)) return;
  synth::BarrierQuery o = q;
  const model::Target here = query_target(q);
  o.rb_coherent = !here.gl2_rb_coherent;
  const std::vector<std::string_view> named = model::targets_with_facts(query_target(o));
  if (!named.empty()) o.target = std::string(named.front()), o.rb_coherent.reset();
  const model::Target there = query_target(o);
  const Answer b = solve(o, r, opt);
  if (!solved(b)) return;
  const int cost = a.fix.before + a.fix.cost, other = b.fix.before + b.fix.cost;
  if (other == cost && cell(b) == cell(a)) {
    out << fmt::format("\nthe same barrier with {}.\n", model::describe_where(there));
    return;
  }
  out << fmt::format(
      "\nwith {} the cheapest barrier differs: cost {}: {}\n  why: {}\n",
      model::describe_where(there), other, cell(b),
      there.gl2_rb_coherent
          ? "there GL2 is coherent between the render back-ends and the other clients, so the data "
            "need not meet in memory (no GL2 write-back and invalidation); no console target is "
            "known to be such a GPU (model/SEMANTICS.md, Targets)"
          : "there GL2 is not coherent between the render back-ends and the other clients: data "
            "crossing between them must meet in memory, a GL2 write-back, then a GL2 invalidation "
            "(research §2.3; model/SEMANTICS.md, Targets)");
}

// The barrier's commands in one table cell: "BOP(CS_PARTIAL_FLUSH) ; TOP(VCACHE | GL1)".
std::string cell(const Answer& a) {
  if (!a.error.empty()) return "error: " + a.error;
  if (!solved(a)) return "no barrier: " + a.fix.why;
  const model::Case& c = a.fix.status == synth::FixResult::Status::Fixed ? a.fix.fixed : a.original;
  std::vector<std::string> parts;
  for (size_t q = 0; q < c.queues.size(); ++q)
    for (const model::Command& cmd : c.queues[q].commands) {
      if (std::holds_alternative<model::WorkCmd>(cmd.body)) continue;
      std::string s = synth::command_source(c, cmd, false);
      for (std::string_view drop :
           {", NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)", ", 0, D3D12XBOX_FLUSH_RANGE_ALL)"})
        if (auto at = s.find(drop); at != std::string::npos) s.replace(at, drop.size(), ")");
      if (const auto* sig = std::get_if<model::SignalCmd>(&cmd.body))
        s = sig->xbox ? fmt::format("Signal2X({})", synth::sync_word_text(sig->flags, false))
                      : "Signal";
      parts.push_back(s);
    }
  if (parts.empty()) return "none needed";
  return fmt::format("{}", fmt::join(parts, " → "));
}

struct Row {
  synth::BarrierQuery q;
  synth::Resolved r;
  Answer yes, no;
};

std::vector<Row> table_rows(const std::string& profile) {
  std::vector<Row> rows;
  for (const auto& p : synth::table_producers())
    for (const auto& c : synth::table_consumers())
      for (bool cross : {false, true}) {
        synth::BarrierQuery q;
        q.producer = p, q.consumer = c, q.profile = profile;
        const bool ph = p.kind == model::AccessKind::Host, ch = c.kind == model::AccessKind::Host;
        std::string err;
        if (!cross) {
          if (ph || ch) continue;  // the CPU and the GPU are never one queue
          q.producer_queue = q.consumer_queue = model::QueueType::Graphics;
        } else if (ph && ch) {
          continue;
        } else if (ph) {
          q.producer_queue = model::QueueType::Host, q.consumer_queue = model::QueueType::Graphics;
        } else if (ch) {
          q.producer_queue = model::QueueType::Graphics, q.consumer_queue = model::QueueType::Host;
        } else {
          q.producer_queue = model::QueueType::Graphics,
          q.consumer_queue = model::QueueType::Compute;
          if (!synth::resolve(q, &err)) {
            q.producer_queue = model::QueueType::Compute,
            q.consumer_queue = model::QueueType::Graphics;
            err.clear();
          }
        }
        auto r = synth::resolve(q, &err);
        if (!r) continue;  // both are graphics work: no cross-queue pair of queue types
        rows.push_back({q, *r, {}, {}});
      }
  return rows;
}

int run_table(const BarrierArgs& a, const synth::FixOptions& opt, std::ostream& out) {
  std::vector<Row> rows = table_rows(a.profile);
  std::atomic<size_t> next{0};
  const unsigned jobs = std::max(1u, resolve_jobs(a.jobs));
  Workers pool(jobs, [&] {
    for (size_t i; (i = next++) < rows.size();) {
      for (bool yes : {true, false}) {
        synth::BarrierQuery q = rows[i].q;
        q.rb_coherent = yes;
        (yes ? rows[i].yes : rows[i].no) = solve(q, rows[i].r, opt);
      }
    }
  });
  pool.join();
  out << "# Barrier reference card\n\n"
         "<!-- Generated by `syncproof barrier --table > docs/BARRIERS.md` (python3 "
         "scripts/gen_docs.py regenerates it); CTest (docs/barriers-current) fails when it is "
         "stale. Do not edit by hand. -->\n\n"
         "The cheapest barrier the model proves (`visible` and `no-hazards` for a read, "
         "`no-hazards` for a write, `deadlock-free` across queues) between a producer and a "
         "consumer access, under the cost model of `model/COSTS.md`, each re-checked with both "
         "engines. `target` is `gl2-rb-coherent`; where both targets need the same barrier the "
         "row says `any`. `→` separates commands in API order; cross-queue barriers show the "
         "producer queue's commands, then the consumer queue's. Nothing is known of what "
         "touched the resource before the producer, so a render back-end consumer's cache may "
         "hold its lines from any earlier pass (`assume -A-RB-FILL-ON-ACCESS` in each case). "
         "`syncproof barrier --producer P --consumer C` prints one as C++ calls with its case "
         "file and assumptions"
      << (a.profile.empty() ? "" : fmt::format(" (here: profile {})", a.profile)) << ".\n\n"
      << "| producer | consumer | queues | target | cost | barrier |\n"
         "|---|---|---|---|---|---|\n";
  int rc = 0;
  for (const Row& row : rows) {
    const std::string queues =
        row.r.cross ? fmt::format("{} → {}", queue_name(row.r.pq), queue_name(row.r.cq))
                    : fmt::format("one {}", queue_name(row.r.pq));
    auto cost = [](const Answer& x) {
      return solved(x) ? fmt::format("{}", x.fix.before + x.fix.cost) : std::string("—");
    };
    auto line = [&](const char* target, const Answer& x) {
      std::string text = cell(x);  // a '|' inside a Markdown table cell is written '\|'
      for (size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2)
        text.insert(at, "\\");
      out << fmt::format("| {} | {} | {} | {} | {} | {} |\n",
                         synth::access_words(row.q.producer, true),
                         synth::access_words(row.q.consumer), queues, target, cost(x), text);
    };
    if (!row.yes.error.empty() || !row.no.error.empty() ||
        row.yes.fix.status == synth::FixResult::Status::NotVerified ||
        row.no.fix.status == synth::FixResult::Status::NotVerified)
      rc = static_cast<int>(Exit::Disagreement);
    if (cell(row.yes) == cell(row.no) && cost(row.yes) == cost(row.no)) {
      line("any", row.yes);
    } else {
      line("yes", row.yes);
      line("no", row.no);
    }
  }
  return rc;
}

// The layout a texture access needs (enhanced barriers; the specification's "Layout Access
// Compatibility"), by the case language's access kind.
std::string_view layout_for(model::AccessKind k, bool write) {
  switch (k) {
    case model::AccessKind::Rt:
      return "RENDER_TARGET";
    case model::AccessKind::Depth:
      return write ? "DEPTH_STENCIL_WRITE" : "DEPTH_STENCIL_READ";
    case model::AccessKind::Uav:
      return "UNORDERED_ACCESS";
    case model::AccessKind::Srv:
      return "SHADER_RESOURCE";
    case model::AccessKind::CopySrc:
      return "COPY_SOURCE";
    case model::AccessKind::CopyDst:
      return "COPY_DEST";
    default:
      return "COMMON";
  }
}

// The enhanced Barrier(...) that states the same dependency as the answer, checked with both
// engines in the query's case: on one queue, one barrier from the producer's stage and access to
// the consumer's; across queues (a barrier orders nothing on another queue), a barrier that
// finishes the producer's work before a standard Signal and one after the Wait that makes it
// visible to the consumer.
void print_enhanced(std::ostream& out, const synth::BarrierQuery& q, const synth::Resolved& r,
                    const synth::FixOptions& opt) {
  namespace d3d12 = model::d3d12;
  using F = d3d12::Family;
  if (r.pq == model::QueueType::Host || r.cq == model::QueueType::Host) {
    out << "\nenhanced barrier: none (the CPU side has no command list: a fence does it)\n";
    return;
  }
  const uint32_t sb = model::stage_sync(q.producer.kind, q.producer.stage);
  const uint32_t sa = model::stage_sync(q.consumer.kind, q.consumer.stage);
  const uint32_t ab = model::access_bit(q.producer.kind, q.producer.write);
  const uint32_t aa = model::access_bit(q.consumer.kind, q.consumer.write);
  if (!sb || !sa || !ab || !aa) {
    out << "\nenhanced barrier: none (an access no D3D12 barrier names)\n";
    return;
  }
  const auto& k = d3d12::kSync;
  const auto& x = d3d12::kAccess;
  std::string edited = synth::barrier_case_text(q, r);
  const bool texture = edited.find("\ntexture res ") != std::string::npos;
  auto barrier = [&](uint32_t s1, uint32_t s2, uint32_t a1, uint32_t a2, bool full) {
    std::string s = fmt::format(
        "{}, {}, {}, {}, {}", texture ? "Barrier(TEXTURE, res" : "Barrier(BUFFER, res",
        d3d12::describe(F::BarrierSync, s1, full), d3d12::describe(F::BarrierSync, s2, full),
        d3d12::describe(F::BarrierAccess, a1, full), d3d12::describe(F::BarrierAccess, a2, full));
    if (texture) {
      // Across queues the producer's queue changes the layout (a compute queue cannot name the
      // render-target layouts) and the consumer's keeps it.
      const std::string_view to = layout_for(q.consumer.kind, q.consumer.write);
      const bool producer_side = a2 == x.no_access;
      const std::string_view lb =
          r.cross && !producer_side ? to : layout_for(q.producer.kind, q.producer.write);
      const std::string_view la = to;
      s += full ? fmt::format(", D3D12_BARRIER_LAYOUT_{}, D3D12_BARRIER_LAYOUT_{}", lb, la)
                : fmt::format(", {}, {}", lb, la);
    }
    return s + ")";
  };
  bool placed = false;
  std::vector<std::string> producer_lines, consumer_lines;
  if (!r.cross) {
    producer_lines.push_back(barrier(sb, sa, ab, aa, true));
    const size_t at = edited.find("  consume:");
    if (at != std::string::npos) {
      edited.insert(at, "  " + barrier(sb, sa, ab, aa, false) + "\n");
      placed = true;
    }
  } else {
    producer_lines.push_back(barrier(sb, k.none, ab, x.no_access, true));
    producer_lines.push_back("pProducerQueue->Signal(pFence, 1);");
    consumer_lines.push_back("pConsumerQueue->Wait(pFence, 1);");
    consumer_lines.push_back(barrier(k.none, sa, x.no_access, aa, true));
    const std::string sig = "  Signal2X(f, 1, NONE)\n";
    const size_t at = edited.find(sig);
    if (at != std::string::npos) {
      edited.replace(at, sig.size(),
                     "  " + barrier(sb, k.none, ab, x.no_access, false) + "\n  Signal(f, 1)\n");
      const size_t cons = edited.find("  consume:");
      if (cons != std::string::npos) {
        edited.insert(cons,
                      "  Wait(f, 1)\n  " + barrier(k.none, sa, x.no_access, aa, false) + "\n");
        placed = true;
      }
    }
  }
  out << "\nenhanced barrier (the D3D12 Barrier calls for the same dependency):\n";
  if (r.cross) out << "  // producer queue, after the producer:\n";
  for (const auto& l : producer_lines) out << "  " << l << "\n";
  if (r.cross) out << "  // consumer queue, before the consumer:\n";
  for (const auto& l : consumer_lines) out << "  " << l << "\n";
  lang::ParseResult pr = lang::parse_case("barrier.sync", edited);
  if (!placed || pr.has_errors()) {
    out << "  (not checked: the case with it does not parse)\n";
    return;
  }
  const synth::Verification v = opt.verify(pr.c);
  bool proved = v.problems.empty();
  for (const auto* res : {&v.smt, &v.exec})
    for (const auto& p : res->results)
      proved = proved && std::holds_alternative<properties::Proved>(p.verdict);
  out << fmt::format("  {}; cost {} (model/COSTS.md: the barriers as PAL lowers them{})\n",
                     proved ? "proved by both engines in the same case"
                            : "NOT proved by both engines in the same case",
                     opt.costs.barrier(pr.c), r.cross ? ", the fence's own operations" : "");
}

int run_barrier(const BarrierArgs& a) {
  std::ostream& out = std::cout;
  encode::CheckOptions smt;
  smt.timeout_ms = a.timeout_ms;
  exec::ExecOptions ex;
  ex.timeout_ms = a.timeout_ms;
  model::CostModel costs;
  apply_costs(costs, a.costs);  // validated while parsing (add_cost)
  synth::FixOptions opt = fix_options(smt, ex, costs, a.budget);
  opt.style = synth::Style::X;  // the calculator's answer is Xbox sync calls
  if (a.table) {
    if (!a.producer.empty() || !a.consumer.empty() || !a.target.empty() ||
        !a.producer_queue.empty() || !a.consumer_queue.empty())
      throw UsageError(
          "--table prints every producer and consumer on both targets: it takes no "
          "--producer, --consumer, --target or queue");
    return run_table(a, opt, out);
  }
  if (a.producer.empty() || a.consumer.empty())
    throw UsageError("give --producer and --consumer (\"cs uav\", \"ps srv\", ...), or --table");
  std::string err;
  synth::BarrierQuery q;
  q.profile = a.profile;
  auto p = synth::parse_access(a.producer, true, &err);
  if (!p) throw UsageError("--producer " + err);
  auto c = synth::parse_access(a.consumer, false, &err);
  if (!c) throw UsageError("--consumer " + err);
  q.producer = *p, q.consumer = *c;
  if (!a.producer_queue.empty()) {
    q.producer_queue = queue_type(a.producer_queue, &err);
    if (!q.producer_queue) throw UsageError("--producer-queue: " + err);
  }
  if (!a.consumer_queue.empty()) {
    q.consumer_queue = queue_type(a.consumer_queue, &err);
    if (!q.consumer_queue) throw UsageError("--consumer-queue: " + err);
  }
  model::Target t;
  for (const std::string& s : a.target) model::apply_target_option(t, s);  // validated
  if (!a.target.empty()) {
    if (t.name != "conservative") q.target = t.name;
    if (t.changed) q.rb_coherent = t.gl2_rb_coherent;
  }
  auto r = synth::resolve(q, &err);
  if (!r) throw UsageError(err);
  const Answer ans = solve(q, *r, opt);
  print_answer(out, q, *r, ans);
  if (solved(ans)) print_other_targets(out, q, *r, ans, opt);
  if (ans.error.empty()) print_enhanced(out, q, *r, opt);
  if (!ans.error.empty() || ans.fix.status == synth::FixResult::Status::NotVerified)
    return static_cast<int>(Exit::Disagreement);
  if (!solved(ans))
    return static_cast<int>(
        ans.fix.status == synth::FixResult::Status::Budget ? Exit::Unknown : Exit::NotAsExpected);
  return static_cast<int>(Exit::Ok);
}

}  // namespace

Command register_barrier(CLI::App& app) {
  auto args = std::make_shared<BarrierArgs>();
  auto* cmd = app.add_subcommand(
      "barrier",
      "the cheapest proved barrier between a producer and a consumer access, as C++ calls and "
      "as a case file; --table for every pair");
  cmd->add_option("--producer", args->producer,
                  "the write: \"[STAGE] KIND\", e.g. \"cs uav\", \"ps rt\", \"dma copy-dst\"");
  cmd->add_option("--consumer", args->consumer,
                  "the access after it: \"[STAGE] KIND [read|write]\", e.g. \"ps srv\"");
  cmd->add_option("--producer-queue", args->producer_queue, "graphics (default), compute, host");
  cmd->add_option("--consumer-queue", args->consumer_queue,
                  "graphics, compute, host (default: the producer's queue)");
  add_target(*cmd, args->target);
  add_profile(*cmd, args->profile);
  add_cost(*cmd, args->costs);
  cmd->add_flag("--table", args->table,
                "every producer x consumer, same queue and across queues, both targets, as "
                "Markdown (docs/BARRIERS.md)");
  add_jobs(*cmd, args->jobs, "--table: worker threads (0: one per core)");
  add_budget(*cmd, args->budget, "barrier search");
  add_timeout(*cmd, args->timeout_ms);
  return {cmd, [args] { return run_barrier(*args); }};
}

}  // namespace syncproof::cli
