# Which HDF5 the build links: serial and parallel HDF5 define the same
# symbols, so one binary cannot link both, and every target of one build
# uses the same one.
#
# With MPI (OOCFFT_HAVE_MPI), FindHDF5 is asked for the parallel library
# first (HDF5_PREFER_PARALLEL: h5pcc before h5cc); found, it serves every
# target, the single-process commands and the Python module included
# (opened without an MPI-IO driver, it reads and writes files as the
# serial one does), and the distributed file path is built
# (OOCFFT_HAVE_PARALLEL_HDF5). Without MPI, or without a parallel HDF5
# installed, the serial library, and no distributed file path.
#
# FindHDF5 keeps what it found in the cache. A build folder configured
# for one kind (before MPI or libhdf5-openmpi-dev were installed, or with
# OOCFFT_MPI changed since) forgets it, so that the kind always follows
# what is installed now and the options.
set(_oocfft_hdf5_kind serial)
if(OOCFFT_HAVE_MPI)
  set(_oocfft_hdf5_kind parallel-if-found)
  set(HDF5_PREFER_PARALLEL TRUE)
  find_program(OOCFFT_H5PCC NAMES h5pcc)
  mark_as_advanced(OOCFFT_H5PCC)
  if(OOCFFT_H5PCC)
    set(_oocfft_hdf5_kind parallel)
  endif()
endif()
if(DEFINED OOCFFT_HDF5_KIND_FOUND AND NOT OOCFFT_HDF5_KIND_FOUND STREQUAL _oocfft_hdf5_kind)
  get_cmake_property(_oocfft_cached CACHE_VARIABLES)
  foreach(_oocfft_variable IN LISTS _oocfft_cached)
    if(_oocfft_variable MATCHES "^HDF5_")
      unset(${_oocfft_variable} CACHE)
    endif()
  endforeach()
  message(STATUS "oocfft: HDF5 looked for again (${OOCFFT_HDF5_KIND_FOUND} -> ${_oocfft_hdf5_kind})")
endif()
set(OOCFFT_HDF5_KIND_FOUND ${_oocfft_hdf5_kind} CACHE INTERNAL "The HDF5 kind the cached HDF5_* variables are for")

find_package(HDF5 REQUIRED COMPONENTS C)
set(OOCFFT_HAVE_PARALLEL_HDF5 OFF)
if(HDF5_IS_PARALLEL)
  if(NOT OOCFFT_HAVE_MPI)
    message(FATAL_ERROR "oocfft: the HDF5 found (${HDF5_C_LIBRARIES}) is the parallel library, but MPI is off "
                        "(OOCFFT_MPI=${OOCFFT_MPI}); install the serial one (Debian libhdf5-dev) or turn MPI on")
  endif()
  set(OOCFFT_HAVE_PARALLEL_HDF5 ON)
  # Its hdf5.h includes <mpi.h>: whoever includes hdf5.h needs MPI's
  # headers (h5pcc -show names mpicc, not MPI's include folder).
  set_property(TARGET HDF5::HDF5 APPEND PROPERTY INTERFACE_LINK_LIBRARIES MPI::MPI_C)
endif()
if(OOCFFT_HAVE_PARALLEL_HDF5)
  message(STATUS "oocfft: HDF5 ${HDF5_VERSION}, the parallel library, for every target; distributed file path ON")
else()
  message(STATUS "oocfft: HDF5 ${HDF5_VERSION}, the serial library; distributed file path OFF")
endif()
unset(_oocfft_hdf5_kind)
