#include "tools/workers.h"

#include <system_error>

namespace syncproof::cli {

Workers::Workers(unsigned n, std::function<void()> work) : work_(std::move(work)) {
  threads_.reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    try {
      threads_.emplace_back([this] { run(); });
    } catch (const std::system_error&) {
      break;  // the threads already running share the work
    }
  }
  if (threads_.empty()) work_();  // its exceptions reach the caller directly
}

Workers::~Workers() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void Workers::run() noexcept {
  try {
    work_();
  } catch (...) {
    std::lock_guard lock(mu_);
    if (!failure_) failure_ = std::current_exception();
  }
}

void Workers::join() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
  std::lock_guard lock(mu_);
  if (failure_) std::rethrow_exception(failure_);
}

bool Workers::failed() const {
  std::lock_guard lock(mu_);
  return failure_ != nullptr;
}

}  // namespace syncproof::cli
