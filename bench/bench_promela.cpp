// syncproof_bench promela CASE: the executor's full deadlock-freedom state space of a case as a
// Promela model for SPIN (bench/spin_compare.sh, bench/promela/).
#include <fmt/format.h>

#include "bench/bench_engines.h"
#include "exec/graph.h"
#include "lang/parse.h"

namespace syncproof::bench {

int promela(const std::string& file) {
  auto pr = lang::parse_case_file(file);
  if (pr.has_errors()) {
    fmt::print(stderr, "{}", lang::render_all(pr));
    return 2;
  }
  const model::Case& c = pr.c;
  auto p = model::lower(c, model::config_for(c, std::nullopt, {}));
  exec::Graph g = exec::build_graph(p, exec::WaitMode::Deadlock);
  std::vector<std::vector<std::string>> guard(p.events.size());
  for (const model::Order& o : p.orders) guard[o.after].push_back(fmt::format("e[{}]", o.before));
  if (!g.monotone()) {
    fmt::print(stderr,
               "{}: a wait that a later write can hide (model/wait_value.h) has no Promela form "
               "here\n",
               file);
    return 2;
  }
  for (uint32_t r = 0; r < g.rule_wait.size(); ++r) {
    std::vector<std::string> any;
    for (uint32_t i = g.cand_start[r]; i < g.cand_start[r + 1]; ++i)
      any.push_back(fmt::format("e[{}]", g.cand[i]));
    guard[g.rule_wait[r]].push_back(any.empty() ? "false"
                                                : fmt::format("({})", fmt::join(any, " || ")));
  }
  fmt::print(
      "/* {}: the state space of `syncproof check --engine exec` deciding deadlock-free without\n"
      "   reduction (exec/search_order.cpp, search_deadlock with reduce=false): one bit per\n"
      "   event of the lowering (model/lower*.cpp); an event fires once every event ordered\n"
      "   before it has, and a wait once one of the signals or writes that can satisfy it has.\n"
      "   Firing never disables anything. A state where nothing can fire although some event\n"
      "   has not is a deadlock: SPIN reports it as an invalid end state.\n"
      "   {} events, {} orders, {} constraining wait rules. */\n\n",
      file, p.events.size(), p.orders.size(), g.rule_wait.size());
  fmt::print("bit e[{}];\n\nactive proctype lowering() {{\n  do\n", p.events.size());
  for (model::EventId e = 0; e < p.events.size(); ++e) {
    const model::Event& ev = p.events[e];
    std::vector<std::string> all = guard[e];
    all.insert(all.begin(), fmt::format("!e[{}]", e));
    fmt::print("  :: atomic {{ {} -> e[{}] = 1 }}  /* {} line {}: {} */\n", fmt::join(all, " && "),
               e, c.queues[ev.queue].name, c.queues[ev.queue].commands[ev.cmd].loc.line, ev.what());
  }
  std::vector<std::string> done;
  for (model::EventId e = 0; e < p.events.size(); ++e) done.push_back(fmt::format("e[{}]", e));
  fmt::print("  :: atomic {{ {} -> break }}  /* every event happened */\n  od\n}}\n",
             fmt::join(done, " && "));
  return 0;
}

}  // namespace syncproof::bench
