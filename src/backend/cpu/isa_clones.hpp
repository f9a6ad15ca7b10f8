// The hot elementwise loops (the contiguous loop of a kernel, a fused region's step) are compiled
// twice on x86-64: for the baseline instruction set (two doubles per SSE2 instruction) and for
// AVX2 (four), and the loader picks one for the CPU (target_clones). AVX2 without FMA performs
// the same operations in the same order, so both give the same bits. Sanitizer builds keep one
// version (their run-time libraries and the loader's resolvers do not mix well).
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(undefined_behavior_sanitizer)
#define TFE_NO_ISA_CLONES 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TFE_NO_ISA_CLONES 1
#endif

#if defined(__x86_64__) && defined(__GNUC__) && !defined(TFE_NO_ISA_CLONES)
#define TFE_ISA_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TFE_ISA_CLONES
#endif
