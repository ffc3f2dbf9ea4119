#include "transpose/streaming_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace oocfft::transpose {

void copy_streaming(std::byte* to, const std::byte* from, std::size_t bytes) noexcept {
#if defined(__SSE2__)
  // Ordinary stores up to the first cache-line boundary of the destination,
  // then whole 64-byte lines with streaming stores (whole lines, so the
  // write-combining buffers flush full lines), then the tail.
  constexpr std::size_t line = 64;
  std::size_t head = (line - (reinterpret_cast<std::uintptr_t>(to) & (line - 1))) & (line - 1);
  if (head > bytes) head = bytes;
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  const std::size_t lines = bytes / line;
  for (std::size_t i = 0; i < lines; ++i) {
    const __m128i* s = reinterpret_cast<const __m128i*>(from + i * line);
    __m128i* d = reinterpret_cast<__m128i*>(to + i * line);
    const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1), c = _mm_loadu_si128(s + 2),
                  e = _mm_loadu_si128(s + 3);
    _mm_stream_si128(d, a);
    _mm_stream_si128(d + 1, b);
    _mm_stream_si128(d + 2, c);
    _mm_stream_si128(d + 3, e);
  }
  std::memcpy(to + lines * line, from + lines * line, bytes - lines * line);
#else
  std::memcpy(to, from, bytes);  // no streaming stores on this target
#endif
}

void store_fence() noexcept {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace oocfft::transpose
