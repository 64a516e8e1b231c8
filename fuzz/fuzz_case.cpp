// libFuzzer target: bytes -> parse (with lint) -> render the diagnostics -> lower -> a small
// executor run of every property. It stops (a crash the fuzzer keeps) on anything but a clean
// return: a sanitizer report, an exception, or an internal error of the executor (a
// counterexample that does not replay on the concrete monitor). Inputs are capped (kMaxBytes,
// kMaxCommands, a few thousand states per search) so each one runs in milliseconds.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "exec/check.h"
#include "lang/parse.h"
#include "model/events.h"

namespace {

constexpr size_t kMaxBytes = 8192;
constexpr size_t kMaxCommands = 24;  // the executor's work grows fast with commands per queue

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "syncproof fuzz: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace syncproof;
  if (size > kMaxBytes) return -1;  // not added to the corpus
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    lang::ParseResult pr = lang::parse_case("fuzz.sync", text);
    (void)lang::render_all(pr);
    if (pr.has_errors()) return 0;
    size_t commands = 0;
    for (const auto& q : pr.c.queues) commands += q.commands.size();
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    if (commands > kMaxCommands || p.events.empty()) return 0;
    exec::ExecOptions o;
    o.max_states = 4000;
    o.timeout_ms = 2000;
    o.minimize_assumptions = false;
    const properties::CaseResult r = exec::check_case(pr.c, o);
    if (r.results.size() != pr.c.properties.size()) fail("result count", "");
    for (const auto& res : r.results) {
      if (const auto* e = std::get_if<properties::Error>(&res.verdict);
          e && e->message.starts_with("internal"))
        fail("executor internal error", e->message);
      if (const auto* v = std::get_if<properties::Violated>(&res.verdict);
          v && v->trace.lines.empty())
        fail("a violation without a trace", "");
    }
  } catch (const std::exception& e) {
    fail("exception", e.what());
  }
  return 0;
}
