#pragma once
// Exit codes of the syncproof command line, one table for every subcommand. kExitDocs below is the
// documentation: `syncproof help exit-codes` prints it and the README shows that output
// (scripts/gen_docs.py keeps it current). A run that meets several outcomes exits with the worst,
// in the order of worse() below, so a wrong verdict is never hidden behind a lesser problem
// elsewhere in the run.
#include <initializer_list>

namespace syncproof::cli {

enum class Exit : int {
  Ok = 0,             // lint: clean; check: every property came out as expected
  Warnings = 1,       // lint: warnings only
  InputError = 2,     // a case file has errors (lint or check): no verdict is given for it
  Unreadable = 3,     // an input could not be read (missing, permission denied, symlink loop,
                      // a directory without cases)
  NotAsExpected = 4,  // check: a property is proved/violated against its expectation, or an
                      // engine reported an error for it
  Unknown = 5,        // check: a solver gave up (timeout/unknown) on a prove/refute property
  Disagreement = 6,   // check --engine both: the SMT engine and the executor disagree
  Rejected = 7,       // an input was refused: not a regular file (FIFO, device, socket), over
                      // --max-file-size, or a case over the engines' size caps
  Usage = 64,         // bad command line
  Internal = 70,      // an internal error (a bug, or out of memory) stopped the work on a case
  CannotWrite = 73,   // an output (--output, --trace-out, export, fix --apply) could not be
                      // written, or was refused (read-only, an owner that cannot be kept)
};

// Worst first: a disagreement or an internal error means the tool itself cannot be trusted on
// this run; then a verdict against its expectation; then a question left open; then inputs that
// got no verdict at all; then warnings.
constexpr int severity(Exit e) {
  switch (e) {
    case Exit::Usage:
      return 11;
    case Exit::Disagreement:
      return 10;
    case Exit::Internal:
      return 9;
    case Exit::CannotWrite:
      return 8;
    case Exit::NotAsExpected:
      return 7;
    case Exit::Unknown:
      return 6;
    case Exit::Unreadable:
      return 5;
    case Exit::Rejected:
      return 4;
    case Exit::InputError:
      return 3;
    case Exit::Warnings:
      return 2;
    case Exit::Ok:
      return 0;
  }
  return 11;
}

constexpr Exit worse(Exit a, Exit b) {
  return severity(b) > severity(a) ? b : a;
}

constexpr Exit worst(std::initializer_list<Exit> es) {
  Exit w = Exit::Ok;
  for (Exit e : es) w = worse(w, e);
  return w;
}

// What each code means, worst first (the order of severity(); a test checks it).
struct ExitDoc {
  Exit code;
  const char* meaning;
};
inline constexpr ExitDoc kExitDocs[] = {
    {Exit::Usage,
     "bad command line: an unknown command or option, a bad option value (checked "
     "before anything runs)"},
    {Exit::Disagreement,
     "the SMT engine and the executor disagree (check --engine both, fuzz), "
     "or a fix or barrier was not confirmed by both"},
    {Exit::Internal,
     "internal error: an exception (a bug, or out of memory: see --max-memory) "
     "stopped the work on a case; the run goes on with the next case"},
    {Exit::CannotWrite,
     "an output (--output, --trace-out, export --output, fix --apply) could not "
     "be written, or was refused: read-only, an owner that cannot be kept, a "
     "missing directory"},
    {Exit::NotAsExpected,
     "a prove/refute property came out against its expectation, or an engine "
     "reported an error for any property; lint --expect-inline: diagnostics "
     "differ from the markers; fix: no edit can fix a case; monotone, fuzz: "
     "a failure"},
    {Exit::Unknown,
     "a solver gave up (timeout, resource limit, state budget) on a prove/refute "
     "property: never counted as proved (a check line's unknown is reported, not a "
     "failure)"},
    {Exit::Unreadable,
     "an input could not be read: missing, permission denied (a file, or a "
     "directory met while searching), a symlink loop, a directory without .sync "
     "files"},
    {Exit::Rejected,
     "an input was refused: not a regular file (a FIFO met in a directory, a "
     "device, a socket), over --max-file-size, or a case over --max-commands or "
     "--max-events"},
    {Exit::InputError, "a case file has errors (no verdict is given for it)"},
    {Exit::Warnings,
     "warnings only (lint, export; check prints warnings, and puts them in every "
     "report, but they do not change its exit code)"},
    {Exit::Ok, "ok: every property as expected, nothing to report"},
};

}  // namespace syncproof::cli
