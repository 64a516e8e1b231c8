// The watchdog on its own (no Z3): it interrupts after the budget, repeats until disarmed, never
// interrupts after disarm() returns, and can be armed again.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "solver/watchdog.h"

namespace sv = syncproof::solver;
using namespace std::chrono_literals;

TEST_CASE("watchdog: interrupts once the budget is spent and keeps at it until disarmed") {
  std::atomic<int> calls{0};
  sv::Watchdog w([&] { ++calls; });
  w.arm(1ms);
  // Wait (bounded) for the repeated interrupts a lost first one would need.
  for (int i = 0; i < 20000 && calls < 3; ++i) std::this_thread::sleep_for(1ms);
  CHECK(calls >= 3);
  CHECK(w.disarm());
  const int after = calls;
  std::this_thread::sleep_for(20ms);
  CHECK(calls == after);  // nothing once disarm() has returned
  CHECK(w.interrupts() == static_cast<uint64_t>(after));
}

TEST_CASE("watchdog: a scope that ends before its budget never interrupts") {
  std::atomic<int> calls{0};
  sv::Watchdog w([&] { ++calls; });
  for (int i = 0; i < 100; ++i) {
    sv::WatchdogScope scope(w, std::chrono::milliseconds(60'000));
    CHECK(!scope.finish());
  }
  {
    sv::WatchdogScope none(w, std::nullopt);  // no budget: not armed
    CHECK(!none.finish());
  }
  CHECK(calls == 0);
  // Armed again after a disarm, it fires again.
  w.arm(0ms);
  for (int i = 0; i < 20000 && calls == 0; ++i) std::this_thread::sleep_for(1ms);
  CHECK(w.disarm());
  CHECK(calls > 0);
}

TEST_CASE("watchdog: destroyed while armed, it stops its thread") {
  std::atomic<int> calls{0};
  {
    sv::Watchdog w([&] { ++calls; });
    w.arm(std::chrono::milliseconds(60'000));
  }  // must not wait for the deadline
  CHECK(calls == 0);
}
