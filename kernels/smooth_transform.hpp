#pragma once
// A plain forward DFT of one line in double precision, for the tables that
// plans compute once (Bluestein's convolution kernel spectrum): Stockham
// passes of the smallest prime factors, each butterfly a direct DFT, every
// twiddle and butterfly constant read from RootsOfUnity (exact arguments,
// long double, rounded once). It sits below the line plan and the host
// executor on purpose: a plan must not need the executor that runs plans.
// Meant for smooth lengths; a large prime factor costs that factor per
// point.
#include <cstddef>

#include "kernels/complex.hpp"

namespace oocfft::kernels {

// data[k] <- scale * sum_j data[j] exp(-2 pi i j k / n), in place.
void smooth_forward_transform(Complex<double>* data, std::size_t n, double scale);

}  // namespace oocfft::kernels
