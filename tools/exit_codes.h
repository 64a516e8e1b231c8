#pragma once
// Exit codes of the syncproof command line, one table for every subcommand (README documents it).
// A run that meets several outcomes exits with the worst, in the order of worse() below, so a
// wrong verdict is never hidden behind a lesser problem elsewhere in the run.
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
  CannotWrite = 73,   // an output (--output, --trace-out, export) could not be written
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

}  // namespace syncproof::cli
