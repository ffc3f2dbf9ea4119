#pragma once
// oocfft: 3D FFTs of volumes larger than GPU memory. The one header to include.
#include "oocfft/asm.hpp"
#include "oocfft/error.hpp"
#include "oocfft/hdf5.hpp"
#include "oocfft/host_array.hpp"
#include "oocfft/host_threads.hpp"
#include "oocfft/options.hpp"
#include "oocfft/plan.hpp"
#include "oocfft/real.hpp"
#include "oocfft/trig.hpp"
#include "oocfft/shape.hpp"
