#pragma once
// A wall-clock bound on solver calls that does not depend on Z3's own timer (Z3 4.8.12's timer
// can miss a short deadline, and the query then runs on without bound). One timer thread per
// Watchdog, started on the first arm(); while armed past its deadline it calls `interrupt` again
// every few milliseconds until disarmed, so an interrupt that lands just before the solver starts
// listening (and is therefore lost) is followed by another one. No Z3 here: the owner passes the
// interrupt as a callback (z3_backend.cpp: Z3_interrupt on its context).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace syncproof::solver {

class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  // How often an armed, expired watchdog interrupts again until it is disarmed.
  static constexpr std::chrono::milliseconds kRepeat{2};

  explicit Watchdog(std::function<void()> interrupt);
  ~Watchdog();  // stops and joins the thread
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // From now until disarm(): interrupt once `budget` has passed, and again every kRepeat.
  void arm(std::chrono::milliseconds budget);
  // Returns whether it interrupted since arm(). Once it returns, `interrupt` is not running and
  // will not be called again before the next arm().
  bool disarm();

  uint64_t interrupts() const;  // calls of `interrupt` over the Watchdog's life

 private:
  void loop();

  std::function<void()> interrupt_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::optional<Clock::time_point> deadline_;  // armed
  bool fired_ = false;
  bool stop_ = false;
  uint64_t interrupts_ = 0;
  std::thread thread_;  // last: started after every other member exists
};

// Arms a Watchdog for one scope (nothing when budget is nullopt).
class WatchdogScope {
 public:
  WatchdogScope(Watchdog& w, std::optional<std::chrono::milliseconds> budget)
      : w_(budget ? &w : nullptr) {
    if (w_) w_->arm(*budget);
  }
  ~WatchdogScope() { finish(); }
  WatchdogScope(const WatchdogScope&) = delete;
  WatchdogScope& operator=(const WatchdogScope&) = delete;
  // Disarms now; whether the watchdog interrupted (false when it was never armed).
  bool finish() {
    if (!w_) return fired_;
    fired_ = w_->disarm();
    w_ = nullptr;
    return fired_;
  }

 private:
  Watchdog* w_;
  bool fired_ = false;
};

}  // namespace syncproof::solver
