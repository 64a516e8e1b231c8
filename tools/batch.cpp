#include "tools/batch.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <new>
#include <thread>

#include "lang/expect.h"
#include "lang/parse.h"
#include "lang/source_file.h"
#include "stream/import.h"
#include "tools/inputs.h"
#include "tools/memory_limit.h"
#include "tools/workers.h"
#include "viz/viz.h"

namespace syncproof::cli {

namespace {

EngineRun settings_only(const EngineRun& settings) {
  EngineRun r;
  r.engine = settings.engine;
  r.smt = settings.smt;
  r.exec = settings.exec;
  r.replays = settings.replays;
  return r;
}

// `.json` inputs are command streams (docs/STREAM-FORMAT.md); everything else is a case file.
bool is_stream(const std::string& path) {
  return std::filesystem::path(path).extension() == ".json";
}

lang::ParseResult read_case(const lang::CaseInput& in, const InputLimits& limits, bool* json) {
  if (limits.streams.count(in.path)) return read_stream_case(in, limits.max_file_size, json);
  *json = is_stream(in.path);
  if (*json) return stream::import_file(in.path, limits.max_file_size);
  return lang::parse_case_file(in.path, limits.max_file_size);
}

void check_into(CaseOutcome& o, EngineRun& engines, const lang::CaseInput& in,
                const InputLimits& limits, const SynthCheck* synth, CaseSize& size) {
  report::CaseEntry& e = o.entry;
  e.path = in.path == "-" ? in.display : in.path;
  e.display = in.display;  // escaped: a name cannot split a file:line:col line
  e.c.file = in.display;
  if (!in.problem.empty()) {
    e.status = in.kind == lang::FileProblem::Rejected ? report::CaseStatus::Rejected
                                                      : report::CaseStatus::Unreadable;
    e.message = in.problem;
    return;
  }
  bool json = false;
  lang::ParseResult pr = read_case(in, limits, &json);
  e.diags = pr.diags;
  if (pr.unreadable()) {
    e.status = pr.rejected() ? report::CaseStatus::Rejected : report::CaseStatus::Unreadable;
    e.message = pr.diags.empty() ? "cannot read the file" : pr.diags.front().message;
    e.c = std::move(pr.c);
    return;
  }
  // `# expect:` markers state the diagnostics a case must produce (a lint case, or a case whose
  // warning is part of its point); then only its properties are checked, if any. A JSON stream
  // has none: its lines are JSON, where "# expect:" can only be text inside a string.
  const bool has_markers = !json && !lang::read_expectations(pr.c.lines).expected.empty();
  if (has_markers) {
    auto rep = lang::compare_expectations(pr.c.lines, pr.diags);
    if (!rep.ok()) {
      e.message = lang::render_report(rep, in.display);
      e.status = report::CaseStatus::NotAsExpected;
      e.c = std::move(pr.c);
      return;
    }
    e.expected_diags = true;
    if (pr.has_errors() || pr.c.properties.empty()) {
      e.status = report::CaseStatus::LintOnly;
      e.c = std::move(pr.c);
      return;
    }
  }
  if (pr.has_errors()) {
    e.status = report::CaseStatus::InputErrors;
    e.c = std::move(pr.c);
    return;
  }
  std::optional<model::LoweredProgram> lowered;
  double lowering_ms = 0;
  if (auto over = over_caps(pr.c, engines.smt.profile, engines.smt.assume, engines.smt.target,
                            limits.caps, size, &lowered, &lowering_ms)) {
    e.status = report::CaseStatus::Rejected;
    e.message = *over;
    e.c = std::move(pr.c);
    return;
  }
  e.result = run_engines(engines, pr.c, lowered ? &*lowered : nullptr, lowering_ms);
  lowered.reset();
  if (synth) {
    synth::attach_fixes(pr.c, e.result, synth->fixes, synth->opt);
    e.redundant = redundant_report(pr.c, e.result, *synth);
  }
  e.engine_notes = std::move(engines.notes);
  e.disagreements = std::move(engines.problems);
  e.c = std::move(pr.c);
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

void draw_pictures(CaseOutcome& o) {
  const report::CaseEntry& e = o.entry;
  for (const properties::PropertyResult& r : e.result.results) {
    const auto* v = std::get_if<properties::Violated>(&r.verdict);
    if (!v) continue;
    viz::Pictures pic = viz::draw(e.c, e.result.config, r.property, *v);
    const std::string stem = viz::picture_stem(e.c, r.property);
    o.pictures.push_back({stem + ".perfetto.json", std::move(pic.perfetto)});
    o.pictures.push_back({stem + ".dot", std::move(pic.dot)});
  }
}

// Address space held while a case is checked and given back before its out-of-memory report is
// made: the report needs memory too, and what used the limit up is not always given back (a Z3
// context that failed is kept, solver/z3_backend.cpp). 2 MiB is a mapping of its own (glibc maps
// blocks over 128 KiB), so freeing it returns the room at once.
class Reserve {
 public:
  Reserve() : p_(::operator new(kBytes, std::nothrow)) {}
  ~Reserve() { release(); }
  Reserve(const Reserve&) = delete;
  Reserve& operator=(const Reserve&) = delete;
  void release() {
    ::operator delete(p_);
    p_ = nullptr;
  }

 private:
  static constexpr size_t kBytes = size_t{2} << 20;
  void* p_;
};

}  // namespace

CaseOutcome check_input(const lang::CaseInput& in, const EngineRun& settings, bool pictures,
                        const InputLimits& limits, const SynthCheck* synth) {
  Reserve reserve;
  const auto t0 = std::chrono::steady_clock::now();
  CaseOutcome o;
  EngineRun engines = settings_only(settings);
  CaseSize size;
  const auto internal = [&](std::string message) {
    // What the engines found before the case stopped is not a verdict.
    o.entry.status = report::CaseStatus::InternalError;
    o.entry.message = std::move(message);
    o.entry.result = {};
    o.entry.redundant.clear();
    o.entry.disagreements.clear();
    o.entry.engine_notes.clear();
    engines.totals = {};
    o.pictures.clear();
  };
  const auto out_of_memory = [&] {
    reserve.release();
    internal(fmt::format(
        "internal error: out of memory while checking the case ({}; memory limit {}, "
        "--max-memory); raise the limit if the machine has the memory (0: no limit)",
        size.describe(),
        limits.max_memory && memory_limit_enforced() ? lang::format_size(limits.max_memory)
                                                     : "none"));
  };
  try {
    check_into(o, engines, in, limits, synth, size);
    if (pictures) draw_pictures(o);
  } catch (const std::bad_alloc&) {
    out_of_memory();
  } catch (const std::system_error& ex) {
    if (out_of_resources(ex))
      out_of_memory();
    else
      internal(fmt::format("internal error: {}", ex.what()));
  } catch (const std::exception& ex) {
    internal(fmt::format("internal error: {}", ex.what()));
  }
  o.engines = engines.totals;
  o.entry.ms = properties::ms_since(t0);
  return o;
}

Exit exit_code(const report::Run& run) {
  const report::Totals t = report::totals(run);
  Exit e = Exit::Ok;
  const auto when = [&](size_t n, Exit x) {
    if (n) e = worse(e, x);
  };
  when(run.engines.problems, Exit::Disagreement);
  when(t.internal, Exit::Internal);
  when(t.not_as_expected, Exit::NotAsExpected);
  when(t.gave_up, Exit::Unknown);
  when(t.unreadable, Exit::Unreadable);
  when(t.rejected, Exit::Rejected);
  when(t.input_errors, Exit::InputError);
  return e;
}

std::vector<lang::CaseInput> shard_inputs(const std::vector<lang::CaseInput>& inputs,
                                          unsigned index, unsigned count) {
  if (count <= 1) return inputs;
  std::vector<lang::CaseInput> out;
  for (const lang::CaseInput& in : inputs) {
    const std::string key = std::filesystem::path(in.path).lexically_normal().generic_string();
    if (fnv1a(key) % count == index - 1) out.push_back(in);
  }
  return out;
}

std::optional<std::pair<unsigned, unsigned>> parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  unsigned i = 0, n = 0;
  const auto num = [](std::string_view s, unsigned& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
  };
  if (!num(text.substr(0, slash), i) || !num(text.substr(slash + 1), n)) return std::nullopt;
  if (n == 0 || i == 0 || i > n) return std::nullopt;
  return std::pair{i, n};
}

unsigned resolve_jobs(unsigned requested) {
  if (requested) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores ? cores : 1;
}

void run_batch(const std::vector<lang::CaseInput>& inputs, const EngineRun& settings,
               const BatchOptions& opt, const std::function<void(CaseOutcome&)>& deliver) {
  const size_t n = inputs.size();
  std::vector<std::optional<CaseOutcome>> slots(n);
  std::mutex m;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  size_t done = 0;
  bool stopped = false;  // a worker threw (check_input reports a case's own errors): stop waiting
  const auto work = [&] {
    try {
      for (size_t i; (i = next.fetch_add(1)) < n;) {
        CaseOutcome o = check_input(inputs[i], settings, opt.pictures, opt.limits, opt.synth);
        std::lock_guard lock(m);
        slots[i] = std::move(o);
        ++done;
        ready.notify_all();
      }
    } catch (...) {
      next = n;
      std::lock_guard lock(m);
      stopped = true;
      ready.notify_all();
      throw;  // Workers::join() passes it on
    }
  };
  const unsigned workers = static_cast<unsigned>(std::min<size_t>(std::max(1u, opt.jobs), n));
  Workers pool(workers, work);
  const unsigned running = std::max<unsigned>(1, static_cast<unsigned>(pool.started()));

  const bool tty = opt.progress && ::isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  bool shown = false;
  const auto clear = [&] {
    if (shown) std::fputs("\r\033[K", stderr), shown = false;
  };
  try {
    for (size_t k = 0; k < n; ++k) {
      std::unique_lock lock(m);
      while (!slots[k] && !stopped) {
        ready.wait_for(lock, std::chrono::milliseconds(200));
        const double s = properties::ms_since(t0) / 1000;
        if (tty && s > 2 && !slots[k]) {
          std::fprintf(stderr, "\r\033[Ksyncproof: %zu/%zu cases checked, %.1f s (%u job%s)", done,
                       n, s, running, running == 1 ? "" : "s");
          std::fflush(stderr);
          shown = true;
        }
      }
      if (!slots[k]) break;  // stopped: join() below throws what stopped it
      CaseOutcome o = std::move(*slots[k]);
      slots[k].reset();
      lock.unlock();
      clear();
      deliver(o);
    }
  } catch (...) {
    next = n;  // the workers finish the case they are on; ~Workers joins them
    throw;
  }
  pool.join();
  clear();
}

}  // namespace syncproof::cli
