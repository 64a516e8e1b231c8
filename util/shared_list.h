#pragma once
// A read-only list shared by every copy that holds it, copied only when one of them changes it.
// For lists that many records hold the same of (every cache operation of a level, in each step
// of a property's obligations; every signal of a fence, in each wait on it): one list, not one
// per holder, so memory grows with the list, not with the holders times the list.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <vector>

namespace syncproof::util {

template <class T>
class SharedList {
 public:
  SharedList() = default;
  SharedList(std::vector<T> items)  // NOLINT: a list is a SharedList
      : items_(std::make_shared<const std::vector<T>>(std::move(items))) {}
  SharedList(std::initializer_list<T> items) : SharedList(std::vector<T>(items)) {}

  typename std::vector<T>::const_iterator begin() const { return get().begin(); }
  typename std::vector<T>::const_iterator end() const { return get().end(); }
  size_t size() const { return get().size(); }
  bool empty() const { return get().empty(); }
  const T& operator[](size_t i) const { return get()[i]; }
  const T& back() const { return get().back(); }
  const std::vector<T>& items() const { return get(); }
  // Copies the list first when it is shared.
  void push_back(T item) {
    std::vector<T> v = get();
    v.push_back(std::move(item));
    items_ = std::make_shared<const std::vector<T>>(std::move(v));
  }
  // The same shared list (for memos keyed by list; a copy holding it keeps the address alive).
  const void* id() const { return items_.get(); }

 private:
  const std::vector<T>& get() const {
    static const std::vector<T> kNone;
    return items_ ? *items_ : kNone;
  }
  std::shared_ptr<const std::vector<T>> items_;
};

}  // namespace syncproof::util
