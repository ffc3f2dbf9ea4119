# OOCFFT_KERNEL_SET: which line lengths get a compiled schedule
# (kernels/cuda/compiled_schedule_kernels.cuh) ahead of time. A plan compiles the
# schedules of other lengths it needs at plan time with NVRTC (cached on
# disk; kernels/cuda/plan_time_schedules.hpp); the general run-time-length
# kernel serves what neither covers.
#   pow2  powers of two: contiguous lines 32..8192 (and 16384 for
#         complex<float>), strided lines 16..1024
#   ci    pow2, plus the 7-smooth lengths the tests and benchmarks use
#         (what CI builds: under a minute of nvcc on two cores)
#   full  every 7-smooth length: contiguous 9..4096, strided 9..1024, and
#         the long powers of two; the default (about 800 kernels, 3 minutes
#         of nvcc on two cores)

# The 7-smooth numbers in [low, high], ascending.
function(oocfft_smooth_lengths low high out)
  set(result)
  set(f7 1)
  while(f7 LESS_EQUAL high)
    set(f5 ${f7})
    while(f5 LESS_EQUAL high)
      set(f3 ${f5})
      while(f3 LESS_EQUAL high)
        set(m ${f3})
        while(m LESS_EQUAL high)
          if(m GREATER_EQUAL low)
            list(APPEND result ${m})
          endif()
          math(EXPR m "${m} * 2")
        endwhile()
        math(EXPR f3 "${f3} * 3")
      endwhile()
      math(EXPR f5 "${f5} * 5")
    endwhile()
    math(EXPR f7 "${f7} * 7")
  endwhile()
  list(SORT result COMPARE NATURAL)
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# Sets <prefix>_CONTIGUOUS and <prefix>_STRIDED to the lengths of `set`,
# and <prefix>_CONTIGUOUS_SINGLE to those compiled for complex<float> only.
# Every set holds the long contiguous lines one tile of a compiled schedule
# holds where the general kernel's two buffers do not: 8192 (both types) and
# 16384 (complex<float>; complex<double> would need more registers than a
# block of 1024 threads has).
function(oocfft_kernel_set_lengths set prefix)
  set(contiguous 32 64 128 256 512 1024 2048 4096)
  set(strided 16 32 64 128 256 512 1024)
  if(set STREQUAL "ci")
    # Powers of 3, 5, 6 and 7 (the benchmark's 1D cases), 300x320x343 (its
    # awkward 3D shape), and a few products of several primes.
    list(APPEND contiguous 9 16 25 27 36 49 81 125 216 243 343 625 729 1296 2187 2401 3125 60 120 300 320 1000)
    list(APPEND strided 9 25 27 36 49 81 125 216 243 343 625 729 60 120 300 320 1000)
  elseif(set STREQUAL "full")
    oocfft_smooth_lengths(9 4096 contiguous)
    oocfft_smooth_lengths(9 1024 strided)
  elseif(NOT set STREQUAL "pow2")
    message(FATAL_ERROR "OOCFFT_KERNEL_SET must be pow2, ci or full (got '${set}')")
  endif()
  list(APPEND contiguous 8192)
  list(REMOVE_DUPLICATES contiguous)
  list(REMOVE_DUPLICATES strided)
  list(SORT contiguous COMPARE NATURAL)
  list(SORT strided COMPARE NATURAL)
  set(${prefix}_CONTIGUOUS ${contiguous} PARENT_SCOPE)
  set(${prefix}_CONTIGUOUS_SINGLE 16384 PARENT_SCOPE)
  set(${prefix}_STRIDED ${strided} PARENT_SCOPE)
endfunction()
