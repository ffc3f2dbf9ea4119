#pragma once
// VolumeTransform: which transform a volume's lines get. The complex 3D
// FFT is the engine's native case; the two others reuse its passes, bricks
// and complex kernels:
//   real  numpy's rfftn/irfftn. The volume the passes see is the half
//         spectrum (nz, ny, nx/2+1) complex; along x its rows hold real
//         values in FFTW's padded layout (2*(nx/2+1) reals a row) when
//         they are real, and the x stage turns them into the half spectrum
//         (forward, first) or back (inverse, last). y and z lines are
//         complex lines of the half spectrum.
//   trig  scipy's dctn/dstn of types 2 and 3: a real volume, every axis a
//         real-to-real line transform (Makhoul's mapping onto a complex FFT
//         of the same length, kernels/trig_lines.hpp).
// Host-visible only (the device kernels take the lengths they need).
#include <cstddef>

namespace oocfft::kernels {

enum class TransformKind { complex, real, trig };

// scipy.fft's dct/dst types 2 and 3 (type 3 is type 2's inverse up to scale).
enum class TrigKind { dct2, dct3, dst2, dst3 };

// The type that undoes `kind` up to scale: 2 <-> 3.
constexpr TrigKind inverse_kind(TrigKind kind) {
  switch (kind) {
    case TrigKind::dct2: return TrigKind::dct3;
    case TrigKind::dct3: return TrigKind::dct2;
    case TrigKind::dst2: return TrigKind::dst3;
    case TrigKind::dst3: return TrigKind::dst2;
  }
  return kind;
}

// scipy's norm for the trigonometric transforms: `none` is norm="backward"
// (no factor; "forward" is `none` with a uniform scale the caller applies),
// `ortho` is norm="ortho" (orthogonalize=True: the first output of type 2,
// and the first input of type 3, weighted so that the matrix is orthogonal).
enum class TrigNorm { none, ortho };

struct VolumeTransform {
  TransformKind kind = TransformKind::complex;
  // real: the real length of x; the data's x extent is real_length / 2 + 1
  // complex values.
  std::size_t real_length = 0;
  // trig: the same kind and norm on every axis.
  TrigKind trig = TrigKind::dct2;
  TrigNorm trig_norm = TrigNorm::none;
};

}  // namespace oocfft::kernels
