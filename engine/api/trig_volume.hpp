#pragma once
// What a trigonometric transform hands the streaming engine: the volume
// transform of its kind and norm, and scipy's scale of a run. One
// definition for the two callers that stream a real volume through the
// trig engine: TrigPlan (an array, trig_plan.cpp) and transform_trig_dataset
// (an HDF5 dataset, trig_dataset_transform.cpp).
#include "kernels/volume_transform.hpp"
#include "oocfft/options.hpp"
#include "oocfft/shape.hpp"
#include "oocfft/trig.hpp"

namespace oocfft::engine {

// The engine's transform of the forward run of `transform` (the engine
// runs the inverse kind for an inverse); ortho is done in the lines.
kernels::VolumeTransform trig_volume_transform(TrigTransform transform, Norm norm);

// scipy's factors: the inverse of an unnormalised transform divides by
// 2n along every axis (norm backward), or the forward does (norm forward);
// ortho is orthogonal both ways. An axis of one point is not transformed
// (the engine skips it): type 2 of one point doubles it, type 3 leaves it,
// so its factor joins the scale. Only the last `rank` axes are the
// array's own (scipy's dctn of a 1D or 2D array); the leading ones, of one
// point, stand for no axis and bring no factor.
double trig_scale(TrigTransform transform, Norm norm, const Shape& shape, Direction direction, unsigned rank = 3);

}  // namespace oocfft::engine
