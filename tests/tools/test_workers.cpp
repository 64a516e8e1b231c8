// Workers (tools/workers.h): every job runs once on however many threads started, the work runs
// on the caller's thread when none did, and an exception on a worker reaches join().
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tools/workers.h"

using syncproof::cli::Workers;

namespace {

// 1,000 jobs taken from a shared counter; each records the thread it ran on.
struct Jobs {
  std::atomic<size_t> next{0};
  std::vector<std::thread::id> ran_on = std::vector<std::thread::id>(1000);
  void operator()() {
    for (size_t i; (i = next++) < ran_on.size();) ran_on[i] = std::this_thread::get_id();
  }
};

}  // namespace

TEST_CASE("workers: every job runs once, on the started threads") {
  Jobs jobs;
  Workers w(3, [&] { jobs(); });
  w.join();
  CHECK(w.started() == 3);
  CHECK_FALSE(w.failed());
  for (const std::thread::id& id : jobs.ran_on) {
    CHECK(id != std::thread::id());
    CHECK(id != std::this_thread::get_id());
  }
}

TEST_CASE("workers: with no thread started the caller's thread does the work") {
  Jobs jobs;
  Workers w(0, [&] { jobs(); });  // what is left when no thread can start
  CHECK(w.started() == 0);
  for (const std::thread::id& id : jobs.ran_on) CHECK(id == std::this_thread::get_id());
  w.join();
}

TEST_CASE("workers: an exception on a worker is rethrown by join, once every thread stopped") {
  std::atomic<int> runs{0};
  Workers w(2, [&] {
    if (runs++ == 0) throw std::runtime_error("job failed");
  });
  CHECK_THROWS_WITH_AS(w.join(), "job failed", std::runtime_error);
  CHECK(runs == 2);
  CHECK(w.failed());
}
