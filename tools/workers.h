#pragma once
// Worker threads for the commands that check many things at once (check's batch, barrier
// --table). A thread that cannot start (std::system_error: no threads or no address space left,
// e.g. under --max-memory) is not fatal: the threads that did start share the work, and when none
// could, the caller's thread does it all. The output never depends on how many ran.
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace syncproof::cli {

class Workers {
 public:
  // Starts up to n threads running `work`, which takes jobs until none is left (it must be safe
  // to run on any number of threads, and on this one). With none started, runs it here.
  Workers(unsigned n, std::function<void()> work);
  ~Workers();  // joins
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // How many threads started (0: the work ran in the constructor).
  size_t started() const { return threads_.size(); }
  // Waits for every thread, then rethrows the first exception `work` threw on any of them.
  void join();
  // Whether `work` threw on some thread (it stops taking jobs then; the caller should stop
  // waiting for them).
  bool failed() const;

 private:
  void run() noexcept;
  std::function<void()> work_;
  mutable std::mutex mu_;
  std::exception_ptr failure_;
  std::vector<std::thread> threads_;
};

}  // namespace syncproof::cli
