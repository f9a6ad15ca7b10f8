// BlockCache: a per-thread cache of freed small blocks (coroutine frames, channels), by size class
// of 16 bytes up to 1 KiB, in front of operator new. A block may be freed on any thread (it joins
// that thread's cache). A thread with too many cached blocks of a class hands a batch to a shared
// depot, and a thread with none takes a batch from it: graphs are built on one thread and run on
// others, so blocks flow between threads in batches instead of through the heap one by one.
// Blocks of an exiting thread go back to operator delete. Disabled under AddressSanitizer and
// ThreadSanitizer, so that use-after-free of frames stays detectable.
#pragma once

#include <cstddef>

namespace tfe::dataflow::detail {

void* cache_allocate(std::size_t size);
void cache_deallocate(void* p, std::size_t size) noexcept;
// Bytes of freed blocks held for reuse by the calling thread's cache and the shared depot (for
// memory measurements).
std::size_t cache_held_bytes() noexcept;

} // namespace tfe::dataflow::detail
