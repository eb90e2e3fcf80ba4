#include "fleet_status.hpp"

#include <memory>

#include "cuzk/queue/queue.hpp"

namespace cuzk::daemon {

StatusPage::FleetSource fleet_source(std::string conninfo) {
  auto queue = std::make_shared<std::unique_ptr<queue::Queue>>();
  return [conninfo = std::move(conninfo), queue]() -> nlohmann::ordered_json {
    try {
      if (!*queue) *queue = std::make_unique<queue::Queue>(conninfo);
      const queue::FleetStatus f = (*queue)->fleet();
      nlohmann::ordered_json partitions = nlohmann::ordered_json::object(), hosts = nlohmann::ordered_json::array();
      for (const auto& [state, n] : f.partitions) partitions[state] = n;
      for (const auto& h : f.hosts)
        hosts.push_back({{"host", h.host},
                         {"claimed", h.claimed},
                         {"proofs_last_minute", h.proofs_last_minute},
                         {"proofs", h.proofs}});
      return {{"partitions", std::move(partitions)},
              {"hosts", std::move(hosts)},
              {"partitions_with_failed_attempts", f.partitions_with_failed_attempts},
              {"failed_attempts", f.failed_attempts}};
    } catch (const std::exception& e) {
      queue->reset();
      return {{"error", without_paths(e.what())}};
    }
  };
}

}  // namespace cuzk::daemon
