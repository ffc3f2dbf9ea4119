#include "kernels/cuda/plan_time_compiler.hpp"

#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <memory>
#include <type_traits>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/embedded_sources.hpp"
#include "kernels/cuda/unique_handle.hpp"
#include "oocfft/error.hpp"

namespace oocfft::kernels::cuda {

namespace {

// nvrtcProgram, destroyed on every path.
nvrtcResult destroy_program(nvrtcProgram p) noexcept { return nvrtcDestroyProgram(&p); }
using Program = UniqueHandle<nvrtcProgram, destroy_program>;

[[noreturn]] void refuse(const ScheduleKey& key, const std::string& why) {
  throw Error(ErrorKind::unsupported, "NVRTC could not compile the schedule " + describe(key) + ": " + why);
}

void check_nvrtc(nvrtcResult r, const ScheduleKey& key, const char* call) {
  if (r != NVRTC_SUCCESS) refuse(key, std::string(call) + " failed: " + nvrtcGetErrorString(r));
}

// The program: the schedule header, as the generated instantiation files
// include it, and the real transform's tile kernels, which only NVRTC
// compiles; nvrtcAddNameExpression instantiates the one kernel asked for.
constexpr const char* program_source =
    "#include \"kernels/cuda/compiled_schedule_kernels.cuh\"\n"
    "#include \"kernels/cuda/real_schedule_kernels.cuh\"\n";

// The end of NVRTC's log (its first errors matter most, but a long log of
// warnings would swamp an exception message).
std::string log_excerpt(nvrtcProgram p) {
  std::size_t size = 0;
  if (nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1) return "(no log)";
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(p, log.data()) != NVRTC_SUCCESS) return "(no log)";
  log.resize(size - 1);
  constexpr std::size_t keep = 2000;
  return log.size() > keep ? log.substr(0, keep) + " [...]" : log;
}

}  // namespace

PlanTimeCompiler::PlanTimeCompiler(int arch) : arch_(arch) {
  if (arch < 10)
    throw Error(ErrorKind::invalid_argument, "plan-time compiler: architecture " + std::to_string(arch) +
                                                 " is not a compute capability (90 is sm_90)");
}

PlanTimeCompiler PlanTimeCompiler::for_current_device() {
  int device = 0, major = 0, minor = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  check_cuda(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
  return PlanTimeCompiler(major * 10 + minor);
}

std::string PlanTimeCompiler::nvrtc_version() const {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> PlanTimeCompiler::options() const {
  // C++17, as nvcc compiles the ahead-of-time schedules
  // (kernels/cuda/CMakeLists.txt). NVRTC has no --expt-relaxed-constexpr
  // (NVRTC 13.0 rejects it) and takes unannotated functions for host ones,
  // which JIT mode refuses: -default-device makes the constexpr helpers of
  // the geometry device functions instead, which serves the same purpose.
  // sm_<arch> (not compute_<arch>) makes NVRTC emit a cubin (SASS) rather
  // than PTX, so nothing is JIT-compiled when it is loaded.
  return {"--gpu-architecture=sm_" + std::to_string(arch_), "--std=c++17", "-default-device"};
}

std::string PlanTimeCompiler::fingerprint() const {
  std::string f = "arch=sm_" + std::to_string(arch_) + ";nvrtc=" + nvrtc_version() + ";options=";
  for (const std::string& o : options()) f += o + " ";
  return f + ";sources=" + schedule_sources().digest;
}

CompiledCubin PlanTimeCompiler::compile(const ScheduleKey& key) const {
  const EmbeddedSources& sources = schedule_sources();
  std::vector<const char*> names, texts;
  for (std::size_t i = 0; i < sources.count; ++i) {
    names.push_back(sources.files[i].path);
    texts.push_back(sources.files[i].text);
  }
  nvrtcProgram created = nullptr;  // owned only once the create has succeeded
  check_nvrtc(nvrtcCreateProgram(&created, program_source, "oocfft_schedule.cu", static_cast<int>(sources.count),
                                 texts.data(), names.data()),
              key, "nvrtcCreateProgram");
  const Program program(created);
  const nvrtcProgram raw = program.get();
  const std::string name = kernel_name_expression(key);
  const std::string address = "&" + name;
  check_nvrtc(nvrtcAddNameExpression(raw, address.c_str()), key, "nvrtcAddNameExpression");
  const std::vector<std::string> opts = options();
  std::vector<const char*> args;
  for (const std::string& o : opts) args.push_back(o.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(raw, static_cast<int>(args.size()), args.data());
  if (compiled != NVRTC_SUCCESS) refuse(key, std::string(nvrtcGetErrorString(compiled)) + ": " + log_excerpt(raw));
  const char* lowered = nullptr;
  check_nvrtc(nvrtcGetLoweredName(raw, address.c_str(), &lowered), key, "nvrtcGetLoweredName");
  CompiledCubin cubin;
  cubin.kernel_name = lowered;
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(raw, &size), key, "nvrtcGetCUBINSize");
  if (size == 0) refuse(key, "NVRTC returned an empty cubin");
  cubin.image.resize(size);
  check_nvrtc(nvrtcGetCUBIN(raw, cubin.image.data()), key, "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace oocfft::kernels::cuda
