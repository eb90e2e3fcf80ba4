#include "watchdog.hpp"

#include <spdlog/spdlog.h>

#include "cuzk/util/stoppable_sleep.hpp"
#include "cuzk/v1/prover.grpc.pb.h"

namespace cuzk::daemon {

bool answered(grpc::StatusCode code) {
  return code != grpc::StatusCode::UNAVAILABLE && code != grpc::StatusCode::DEADLINE_EXCEEDED;
}

GrpcWatchdog::GrpcWatchdog(std::vector<std::string> targets, std::function<void(bool)> report,
                           std::function<void()> lost, WatchdogTiming timing)
    : targets_(std::move(targets)),
      report_(std::move(report)),
      lost_(std::move(lost)),
      timing_(timing),
      streak_(timing.failures) {
  const bool ok = round();
  streak_.record(ok);
  report_(ok);
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

bool GrpcWatchdog::round() const {
  bool all = true;
  for (const auto& target : targets_) {
    // A channel of its own each time (no shared subchannel), so that every
    // round makes a new connection: one kept open would not show that the
    // listener still accepts.
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    const auto stub = v1::Prover::NewStub(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + timing_.deadline);
    v1::ListKeysReply reply;
    const grpc::Status status = stub->ListKeys(&ctx, v1::ListKeysRequest{}, &reply);
    if (answered(status.error_code())) continue;
    spdlog::warn("gRPC does not answer on {}: {}", target, status.error_message());
    all = false;
  }
  return all;
}

void GrpcWatchdog::run(std::stop_token stop) {
  while (sleep_unless_stopped(stop, timing_.period)) {
    const bool ok = round();
    if (ok && !streak_.answering()) spdlog::info("gRPC answers again");
    report_(ok);
    if (!streak_.record(ok)) continue;
    spdlog::error("gRPC has not answered {} rounds in a row", timing_.failures);
    lost_();
    return;
  }
}

}  // namespace cuzk::daemon
