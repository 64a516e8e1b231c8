#include "tools/engines.h"

#include <fmt/format.h>

#include <sstream>

#include "tools/report.h"

namespace syncproof::cli {

std::optional<Engine> find_engine(std::string_view name) {
  if (name == "smt") return Engine::Smt;
  if (name == "exec") return Engine::Exec;
  if (name == "both") return Engine::Both;
  return std::nullopt;
}

properties::CaseResult run_engines(EngineRun& run, const model::Case& c) {
  ++run.cases;
  if (run.engine == Engine::Smt) {
    auto r = encode::check_case(c, run.smt);
    run.smt_ms += r.ms;
    return r;
  }
  if (run.engine == Engine::Exec) {
    auto r = exec::check_case(c, run.exec);
    run.exec_ms += r.ms;
    return r;
  }
  CrossResult x = cross_check(c, run.smt, run.exec);
  run.smt_ms += x.smt.ms, run.exec_ms += x.exec.ms;
  run.smt_replayed += x.smt_replayed, run.exec_confirmed += x.exec_confirmed;
  run.notes += x.notes.size();
  std::ostringstream rep;
  for (const std::string& n : x.notes) rep << fmt::format("{}: note: {}\n", c.file, n);
  for (const Problem& pb : x.problems) {
    ++run.problems;
    const model::Property& prop = c.properties[pb.property];
    rep << fmt::format("{}:{}: ENGINE DISAGREEMENT ({}) on {}: {}\n", c.file, prop.loc.line,
                       to_string(pb.kind), property_text(c, prop), pb.detail);
    rep << "  the SMT engine:\n";
    print_property(rep, c, prop, x.smt.results[pb.property], false);
    rep << "  the executor:\n";
    print_property(rep, c, prop, x.exec.results[pb.property], false);
  }
  run.pending = rep.str();
  properties::CaseResult r = x.smt;
  r.ms += x.exec.ms;
  for (size_t i = 0; i < r.results.size(); ++i)
    if (std::holds_alternative<properties::Unknown>(r.results[i].verdict))
      r.results[i] = x.exec.results[i];
  return r;
}

void print_engine_summary(std::ostream& out, const EngineRun& run) {
  if (run.engine != Engine::Both) return;
  out << fmt::format(
      "engines: {} cases, smt {:.2f}s, exec {:.2f}s; {} SMT counterexamples replayed on the "
      "executor, {} executor counterexamples accepted by the SMT encoding; {} disagreements, {} "
      "notes\n",
      run.cases, run.smt_ms / 1000, run.exec_ms / 1000, run.smt_replayed, run.exec_confirmed,
      run.problems, run.notes);
}

}  // namespace syncproof::cli
