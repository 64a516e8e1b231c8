#include "solver/watchdog.h"

namespace syncproof::solver {

Watchdog::Watchdog(std::function<void()> interrupt) : interrupt_(std::move(interrupt)) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::arm(std::chrono::milliseconds budget) {
  {
    std::lock_guard lock(mu_);
    deadline_ = Clock::now() + budget;
    fired_ = false;
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }
  cv_.notify_all();
}

bool Watchdog::disarm() {
  std::lock_guard lock(mu_);  // waits for an interrupt in progress: it runs under the lock
  deadline_.reset();
  return fired_;
}

uint64_t Watchdog::interrupts() const {
  std::lock_guard lock(mu_);
  return interrupts_;
}

void Watchdog::loop() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    if (!deadline_) {
      cv_.wait(lock);
    } else if (Clock::now() < *deadline_) {
      cv_.wait_until(lock, *deadline_);
    } else {
      // Under the lock, so disarm() cannot return while the interrupt runs.
      interrupt_();
      fired_ = true;
      ++interrupts_;
      cv_.wait_for(lock, kRepeat);
    }
  }
}

}  // namespace syncproof::solver
