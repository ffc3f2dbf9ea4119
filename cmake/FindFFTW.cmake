# FFTW is a test and benchmark dependency only: the library never links it.
find_path(FFTW_INCLUDE_DIR fftw3.h)
find_library(FFTW_DOUBLE_LIB fftw3)
find_library(FFTW_FLOAT_LIB fftw3f)
find_library(FFTW_LONG_LIB fftw3l)
find_library(FFTW_DOUBLE_THREADS_LIB fftw3_threads)
find_library(FFTW_FLOAT_THREADS_LIB fftw3f_threads)
if(NOT FFTW_INCLUDE_DIR OR NOT FFTW_DOUBLE_LIB OR NOT FFTW_FLOAT_LIB OR NOT FFTW_LONG_LIB
   OR NOT FFTW_DOUBLE_THREADS_LIB OR NOT FFTW_FLOAT_THREADS_LIB)
  message(FATAL_ERROR "FFTW (float, double, long double and threads) is needed by the tests and "
                      "benchmarks: install libfftw3-dev, or configure with "
                      "-DOOCFFT_BUILD_TESTS=OFF -DOOCFFT_BUILD_BENCH=OFF")
endif()
add_library(oocfft_fftw INTERFACE)
target_include_directories(oocfft_fftw INTERFACE ${FFTW_INCLUDE_DIR})
target_link_libraries(oocfft_fftw INTERFACE
  ${FFTW_FLOAT_THREADS_LIB} ${FFTW_DOUBLE_THREADS_LIB}
  ${FFTW_FLOAT_LIB} ${FFTW_DOUBLE_LIB} ${FFTW_LONG_LIB} Threads::Threads)
