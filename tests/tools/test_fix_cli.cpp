// `syncproof fix` through the binary: the printed edits and diff, --apply rewriting the file
// (and a second run finding nothing to fix), unfixable races, and the exit codes and exact
// messages of bad input and bad options.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/tools/shell_run.h"

namespace fs = std::filesystem;
using syncproof::testing::Ran;
using syncproof::testing::shell_run;
using syncproof::testing::slurp;

namespace {

// Runs the binary in `dir`, bounded by a timeout.
Ran run(const fs::path& dir, const std::string& args) {
  return shell_run(dir, args, dir / "stderr.txt");
}

struct TempDir {
  fs::path path;
  TempDir() {
    static int n = 0;
    path = fs::temp_directory_path() / fmt::format("syncproof-fix-{}-{}", ::getpid(), n++);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

const char* kBroken = R"(case "no barrier"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv

prove visible produce -> consume
)";

}  // namespace

TEST_CASE("fix prints every edit and the diff, --apply writes it, and the case is then proved") {
  TempDir d;
  d.write("f.sync", kBroken);
  const Ran a = run(d.path, "fix f.sync");
  CHECK(a.rc == 0);
  CHECK(a.out.find("f.sync: fix: 2 edits, cost +11 (barrier 0 -> 11); proved by both engines") !=
        std::string::npos);
  CHECK(a.out.find("  f.sync:7: insert SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, "
                   "D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL) before "
                   "Dispatch (consume) (+7)\n") != std::string::npos);
  CHECK(a.out.find("--- a/f.sync\n+++ b/f.sync\n@@ -4,6 +4,8 @@\n") != std::string::npos);
  CHECK(slurp(d.path / "f.sync") == kBroken);  // without --apply, nothing is written
  const Ran b = run(d.path, "fix --apply --no-diff f.sync");
  CHECK(b.rc == 0);
  CHECK(b.out.find("f.sync: applied\n") != std::string::npos);
  CHECK(b.out.find("--- a/") == std::string::npos);
  const std::string fixed = slurp(d.path / "f.sync");
  CHECK(fixed.find("  produce: Dispatch writes grid as uav\n"
                   "  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
                   "  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, "
                   "D3D12XBOX_FLUSH_RANGE_ALL)\n"
                   "  consume: Dispatch reads grid as srv\n") != std::string::npos);
  for (const auto& e : fs::directory_iterator(d.path))  // no temporary file left behind
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  const Ran c = run(d.path, "check --quiet f.sync");
  CHECK(c.rc == 0);
  const Ran again = run(d.path, "fix f.sync");
  CHECK(again.rc == 0);
  CHECK(again.out ==
        "f.sync: nothing to fix (every `prove` property is proved)\n"
        "fix: 1 case: 0 fixed, 1 with nothing to fix, 0 unfixable, 0 not found within the "
        "budget, 0 not confirmed; 0 input errors, 0 unreadable\n");
}

TEST_CASE("a race nothing can order: no fix, why, and exit code 4") {
  TempDir d;
  d.write("race.sync", R"(case "race"
queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
on gfx:
  a: Draw writes grid as uav in ps
on acs:
  b: Dispatch writes grid as uav
prove no-hazards
)");
  const Ran r = run(d.path, "fix race.sync");
  CHECK(r.rc == 4);
  CHECK(r.out.find("race.sync: no fix: no-hazards stays unproved with every candidate edit: ") !=
        std::string::npos);
  CHECK(r.out.find("; nothing on queue gfx after line 6 signals a fence or writes a label value "
                   "that queue acs could wait for before line 8\n") != std::string::npos);
}

TEST_CASE("fix: bad input and bad options get their exit code and exact message") {
  TempDir d;
  d.write("bad.sync", "case \"x\"\nqueue q compute\non q:\n  Bogus()\n");
  const Ran bad = run(d.path, "fix bad.sync");
  CHECK(bad.rc == 2);
  CHECK(bad.err == "bad.sync:4:3: error: unknown command 'Bogus'\n  Bogus()\n  ^~~~~\n");
  CHECK(bad.out ==
        "fix: 0 cases: 0 fixed, 0 with nothing to fix, 0 unfixable, 0 not found within the "
        "budget, 0 not confirmed; 1 input errors, 0 unreadable\n");
  const Ran missing = run(d.path, "fix nothing.sync");
  CHECK(missing.rc == 3);
  CHECK(missing.err == "nothing.sync: error: cannot read the file: No such file or directory\n");
  d.write("f.sync", kBroken);
  const Ran cost = run(d.path, "fix --cost FOO=1 f.sync");
  CHECK(cost.rc == 64);
  CHECK(cost.err ==
        "syncproof fix: --cost: 'FOO=1': 'FOO' has no cost of its own (see model/COSTS.md: sync "
        "operations, control flags and sync commands)\n");
  const Ran budget = run(d.path, "fix --budget 0 f.sync");
  CHECK(budget.rc == 64);
  CHECK(budget.err == "syncproof fix: --budget: must be at least 1 (engine calls)\n");
  d.write("s.json", "{}\n");
  const Ran json = run(d.path, "fix s.json");
  CHECK(json.rc == 2);
  CHECK(json.err.find("s.json: error: a JSON command stream is generated, not edited") == 0);
  const Ran piped = run(d.path, "fix - < f.sync");
  CHECK(piped.rc == 64);
  CHECK(piped.err ==
        "syncproof fix: fix edits files: give the case file, not standard input ('-')\n");
}

TEST_CASE("check: a violated prove property's trace ends with its complete fix") {
  TempDir d;
  d.write("f.sync", kBroken);
  const Ran r = run(d.path, "check f.sync");
  CHECK(r.rc == 4);
  CHECK(r.out.find(
            "    fix (cost +11, proved by both engines):\n"
            "      f.sync:7: insert SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, "
            "D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL) before Dispatch "
            "(consume) (+7)\n"
            "      f.sync:7: insert SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
            "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, "
            "D3D12XBOX_FLUSH_RANGE_ALL) before Dispatch (consume) (+4)\n") != std::string::npos);
  CHECK(run(d.path, "check --no-fix f.sync").out.find("    fix") == std::string::npos);
  const Ran both = run(d.path, "check --fix --no-fix f.sync");
  CHECK(both.rc == 64);
  CHECK(both.err == "syncproof check: --fix and --no-fix exclude each other\n");
  // SARIF carries it as a fix object: two new lines before line 7.
  const Ran sarif = run(d.path, "check --format sarif f.sync");
  CHECK(sarif.out.find("\"fixes\"") != std::string::npos);
  CHECK(sarif.out.find("\"text\": \"  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, "
                       "D3D12XBOX_FLUSH_RANGE_ALL)\\n\"") != std::string::npos);
}

TEST_CASE("check: a refuted twin gets its fix with --fix only, and a race says why not") {
  TempDir d;
  d.write("twin.sync", R"(case "twin"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
refute visible produce -> consume missing GL1_INVALIDATE
)");
  CHECK(run(d.path, "check twin.sync").out.find("    fix") == std::string::npos);
  const Ran r = run(d.path, "check --fix twin.sync");
  CHECK(r.rc == 0);
  CHECK(r.out.find("    fix (cost +2, proved by both engines):\n"
                   "      twin.sync:7: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX "
                   "(+2)\n") != std::string::npos);
  d.write("race.sync", R"(case "race"
queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
on gfx:
  a: Draw writes grid as uav in ps
on acs:
  b: Dispatch writes grid as uav
prove no-hazards
)");
  const Ran race = run(d.path, "check race.sync");
  CHECK(race.out.find("    fix: none: no-hazards stays unproved with every candidate edit: ") !=
        std::string::npos);
}

TEST_CASE("check --redundant: the flags that can go alone and the smallest barrier") {
  TempDir d;
  d.write("over.sync", R"(case "over-synchronized"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | IDLE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE | KCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  const Ran r = run(d.path, "check --redundant over.sync");
  CHECK(r.rc == 0);
  CHECK(r.out.find(
            "over.sync: redundant: 3 flags can go on their own:\n"
            "  over.sync:6: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH in SyncBottomOfPipeX (saves 6)\n"
            "  over.sync:6: D3D12XBOX_SYNC_FLAG_IDLE in SyncBottomOfPipeX (saves 32)\n"
            "  over.sync:7: D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE in SyncTopOfPipeX (saves 1)\n"
            "over.sync: smallest barrier: cost 44 -> 11 (saves 33), every property proved by both "
            "engines:\n"
            "  over.sync:6: remove D3D12XBOX_SYNC_FLAG_IDLE from SyncBottomOfPipeX (-32)\n"
            "  over.sync:7: remove D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE from SyncTopOfPipeX "
            "(-1)\n") != std::string::npos);
  d.write("f.sync", kBroken);
  CHECK(run(d.path, "check --redundant f.sync")
            .out.find("f.sync: redundant: not looked for (a property is not proved)\n") !=
        std::string::npos);
}

TEST_CASE("barrier: the cheapest proved barrier as C++ calls, a case file and its assumptions") {
  TempDir d;
  const Ran r = run(d.path, "barrier --producer 'cs uav' --consumer 'ps srv'");
  CHECK(r.rc == 0);
  CHECK(r.out ==
        "barrier: cs uav -> ps srv, one graphics queue, target conservative (gl2-rb-coherent no; "
        "the same facts as xbox-series-x, xbox-series-s)\n"
        "cheapest proved barrier: cost 11 (model/COSTS.md); every property proved by both "
        "engines\n\n"
        "C++ (between the producer's work and the consumer's):\n"
        "  pCommandList->SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, "
        "D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL);\n"
        "  pCommandList->SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
        "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, "
        "D3D12XBOX_FLUSH_RANGE_ALL);\n\n"
        "case file:\n"
        "  case \"cs uav -> ps srv\"\n"
        "  queue q graphics\n"
        "  buffer res 0x100000 0x10000\n"
        "  on q:\n"
        "    produce: Dispatch writes res as uav\n"
        "    SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
        "    SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, "
        "D3D12XBOX_FLUSH_RANGE_ALL)\n"
        "    consume: Draw reads res as srv in ps\n"
        "  prove visible produce -> consume\n"
        "  prove no-hazards\n\n"
        "assumptions the proof rests on (model/SEMANTICS.md): A-GCR-OUTER-FIRST, "
        "A-WAVE-END-STORES-IN-GL2\n"
        "\n"
        "enhanced barrier (the D3D12 Barrier calls for the same dependency):\n"
        "  Barrier(BUFFER, res, D3D12_BARRIER_SYNC_COMPUTE_SHADING, "
        "D3D12_BARRIER_SYNC_PIXEL_SHADING, D3D12_BARRIER_ACCESS_UNORDERED_ACCESS, "
        "D3D12_BARRIER_ACCESS_SHADER_RESOURCE)\n"
        "  proved by both engines in the same case; cost 14 (model/COSTS.md: the barriers as PAL "
        "lowers them)\n");
  // The printed case file is a case the checker proves.
  const std::string text = r.out.substr(r.out.find("case file:\n") + 11);
  std::string file;
  for (size_t i = 0; i < text.size();) {
    const size_t j = text.find('\n', i);
    const std::string line = text.substr(i, j - i);
    if (line.empty()) break;
    file += line.substr(2) + "\n";
    i = j + 1;
  }
  d.write("b.sync", file);
  CHECK(run(d.path, "check --quiet b.sync").rc == 0);
}

TEST_CASE("barrier: across queues, the signal and the wait") {
  TempDir d;
  const Ran r = run(d.path,
                    "barrier --producer 'cs uav' --consumer 'ps srv' --producer-queue compute "
                    "--consumer-queue graphics");
  CHECK(r.rc == 0);
  CHECK(r.out.find("barrier: cs uav -> ps srv, compute queue -> graphics queue, target "
                   "conservative (") == 0);
  CHECK(r.out.find("  // producer queue (compute), after the producer:\n"
                   "  pProducerQueue->Signal2X(pFence, 1, ") != std::string::npos);
  CHECK(r.out.find("  // consumer queue (graphics), before the consumer:\n"
                   "  pConsumerQueue->WaitX(pFence, 1, ") != std::string::npos);
  CHECK(r.out.find("  prove deadlock-free\n") != std::string::npos);
}

// Issue 25 point 8: the render-target -> texture barrier costs 60 on every console target and 20
// where GL2 is coherent between the render back-ends and the texture path; the output says so.
TEST_CASE("barrier: names its target and what the other value of gl2-rb-coherent needs, and why") {
  TempDir d;
  Ran r = run(d.path, "barrier --producer 'ps rt' --consumer 'ps srv' --target xbox-series-x");
  CHECK(r.rc == 0);
  CHECK(r.out.find("barrier: ps rt -> ps srv, one graphics queue, target xbox-series-x "
                   "(gl2-rb-coherent no; the same facts as conservative, xbox-series-s)\n"
                   "cheapest proved barrier: cost 60 ") == 0);
  CHECK(r.out.find("\nwith gl2-rb-coherent yes (no named target) the cheapest barrier differs: "
                   "cost 20: SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE | BASE_COHERENCY "
                   "| COLOR_BLOCK_INVALIDATE)\n  why: there GL2 is coherent between the render "
                   "back-ends and the other clients") != std::string::npos);
  r = run(d.path, "barrier --producer 'ps rt' --consumer 'ps srv' --target gl2-rb-coherent=yes");
  CHECK(r.rc == 0);
  CHECK(r.out.find("target conservative with gl2-rb-coherent yes\ncheapest proved barrier: cost "
                   "20 ") != std::string::npos);
  CHECK(r.out.find("\nwith gl2-rb-coherent no (conservative, xbox-series-x, xbox-series-s) the "
                   "cheapest barrier differs: cost 60: ") != std::string::npos);
  // Between two shader accesses the fact changes nothing: nothing is said.
  r = run(d.path, "barrier --producer 'cs uav' --consumer 'ps srv'");
  CHECK(r.out.find("gl2-rb-coherent yes") == std::string::npos);
}

TEST_CASE("fix: names the target and what the other value of gl2-rb-coherent needs") {
  TempDir d;
  const std::string src = std::string(SYNCPROOF_SOURCE_DIR) + "/cases/render-targets/";
  Ran r = run(d.path, "fix --all --no-diff " + src + "rt-to-srv-series-x-no-gl2.sync");
  CHECK(r.out.find("  target: xbox-series-x (gl2-rb-coherent no; the same facts as "
                   "conservative, xbox-series-s)\n"
                   "  with gl2-rb-coherent yes (no named target) nothing needs fixing: there GL2 "
                   "is coherent") != std::string::npos);
  r = run(d.path, "fix " + src + "rt-to-srv-series-s-coherent-fact.sync");
  CHECK(r.out.find("rt-to-srv-series-s-coherent-fact.sync: nothing to fix (every `prove` property "
                   "is proved on target xbox-series-s with gl2-rb-coherent yes)\n"
                   "  but with gl2-rb-coherent no (conservative, xbox-series-x, xbox-series-s) "
                   "the properties at lines 18, 19 are not proved: ") != std::string::npos);
}

TEST_CASE("barrier: bad queries are usage errors with their exact message") {
  TempDir d;
  const std::pair<const char*, const char*> cases[] = {
      {"--producer 'ps srv' --consumer 'cs srv'",
       "syncproof barrier: --producer 'ps srv': srv is read only\n"},
      {"--producer 'cs uav' --consumer 'ps rt' --consumer-queue compute",
       "syncproof barrier: the consumer (ps rt) is graphics work: it cannot run on a compute "
       "queue\n"},
      {"--producer 'cs uav' --consumer 'ps srv' --target gl2=1",
       "syncproof barrier: --target: unknown target key 'gl2' (gl2-rb-coherent)\n"},
      {"--producer 'cs uav' --consumer 'ps srv' --target xbox-series-z",
       "syncproof barrier: --target: unknown target 'xbox-series-z' (conservative, xbox-series-x, "
       "xbox-series-s, or KEY=VALUE: gl2-rb-coherent=yes|no); did you mean 'xbox-series-x'?\n"},
      {"--producer 'cs uav'",
       "syncproof barrier: give --producer and --consumer (\"cs uav\", \"ps srv\", ...), or "
       "--table\n"},
      {"--table --producer 'cs uav'",
       "syncproof barrier: --table prints every producer and consumer on both targets: it takes "
       "no --producer, --consumer, --target or queue\n"},
      {"--producer 'cs srv' --consumer 'cs rt'",
       "syncproof barrier: --producer 'cs srv': srv is read only\n"},
      {"--producer 'cs uav' --consumer 'vs rt'",
       "syncproof barrier: --consumer 'vs rt': a rt access does not happen in vs\n"},
  };
  for (const auto& c : cases) {
    const std::string args = c.first;  // CAPTURE takes a reference: not to a structured binding
    CAPTURE(args);
    const Ran r = run(d.path, "barrier " + args);
    CHECK(r.rc == 64);
    CHECK(r.err == c.second);
  }
}
