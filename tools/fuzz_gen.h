#pragma once
// Random case files for `syncproof fuzz`: well-formed cases over random queues, work, accesses,
// sync flags (ranges and margins included), fences, labels and waits, with visible / ordered /
// no-hazards / deadlock-free properties as `check` lines. Valid and non-vacuous at every size:
// one case in ten (at most one item in it) has a flag combination the queue or API does not
// accept, which must lint as an error, and one in twenty a wait nothing satisfies (it then asks
// deadlock-free only); every other case has a complete execution, because every wait is for a
// value an earlier-generated signal or label write gives. Kept as lines so the shrinker
// (tools/fuzz_shrink.h) can drop pieces and render the case again. Deterministic per seed.
#include <cstdint>
#include <string>
#include <vector>

namespace syncproof::cli {

struct FuzzQueue {
  std::string name, type;             // "graphics" | "compute" | "host"
  std::vector<std::string> commands;  // one command line each (with its `label:` prefix)
};

struct FuzzCase {
  uint64_t seed = 0;
  std::vector<std::string> header;  // profile / assume / target lines
  std::vector<std::string> decls;   // buffer / texture / fence / label lines
  std::vector<FuzzQueue> queues;
  std::vector<std::string> props;  // property lines
  bool expect_lint_error = false;  // an invalid combination was put in on purpose
  std::string title;
  std::string render() const;
};

struct FuzzShape {
  int max_commands = 10;  // over all queues
  int queues = 3;         // at most
};

FuzzCase generate_case(uint64_t seed, const FuzzShape& shape);

}  // namespace syncproof::cli
