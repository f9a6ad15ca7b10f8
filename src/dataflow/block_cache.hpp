// BlockCache: a per-thread cache of freed small blocks (coroutine frames, channels), by size class
// of 16 bytes up to 1 KiB, in front of operator new. A block may be freed on any thread (it joins
// that thread's cache); each class keeps at most kMaxCached blocks per thread, the rest go back to
// operator delete, as do all blocks once the thread's cache is destroyed. Disabled under
// AddressSanitizer, so that use-after-free of frames stays detectable.
#pragma once

#include <cstddef>

namespace tfe::dataflow::detail {

void* cache_allocate(std::size_t size);
void cache_deallocate(void* p, std::size_t size) noexcept;

} // namespace tfe::dataflow::detail
