// The default socket's rule (cuzk/service/daemon_socket.hpp), shared by
// cuzkd and its clients: which folder for which environment, and the
// refusal of a user's folder that another user could have made or may write.
#include "cuzk/service/daemon_socket.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "../io/io_test_support.hpp"

namespace cuzk::test {
namespace {

using service::SocketEnvironment;

SocketEnvironment user(uid_t uid, const fs::path& tmpdir, std::string xdg = "") {
  SocketEnvironment e;
  e.uid = uid;
  e.tmpdir = tmpdir.string();
  e.xdg_runtime_dir = std::move(xdg);
  return e;
}

// A uid that owns nothing here: refusals name another user's folder.
constexpr uid_t kStranger = 65534;

std::string refusal(bool create, const SocketEnvironment& e) {
  try {
    service::prepare_default_socket_dir(create, e);
  } catch (const std::runtime_error& err) {
    return err.what();
  }
  return "";
}

TEST(DaemonSocket, TheFolderFollowsTheEnvironment) {
  SocketEnvironment e = user(1000, "");
  EXPECT_EQ(service::default_socket(e), "/tmp/cuzk-1000/cuzkd.sock");
  e.tmpdir = "/var/tmp";
  EXPECT_EQ(service::default_socket(e), "/var/tmp/cuzk-1000/cuzkd.sock");
  e.xdg_runtime_dir = "/run/user/1000";
  EXPECT_EQ(service::default_socket(e), "/run/user/1000/cuzk/cuzkd.sock");
  e.uid = 0;
  EXPECT_EQ(service::default_socket(e), "/run/cuzk/cuzkd.sock");
  e.runtime_directory = "/run/cuzk-a";
  EXPECT_EQ(service::default_socket(e), "/run/cuzk-a/cuzkd.sock");
  e.uid = 1000;
  EXPECT_EQ(service::default_socket(e), "/run/cuzk-a/cuzkd.sock");

  // A client tries its own socket, then the system's.
  EXPECT_EQ(service::client_socket_candidates(user(1000, "/t")),
            (std::vector<fs::path>{"/t/cuzk-1000/cuzkd.sock", "/run/cuzk/cuzkd.sock"}));
  EXPECT_EQ(service::client_socket_candidates(user(0, "/t")), (std::vector<fs::path>{"/run/cuzk/cuzkd.sock"}));
}

TEST(DaemonSocket, AUsersFolderMustBeTheirsAndPrivate) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to give folders to another uid";
  TempDir tmp;
  const SocketEnvironment e = user(kStranger, tmp.path());
  const fs::path dir = tmp / ("cuzk-" + std::to_string(kStranger));

  // Missing: --check passes where the parent lets it be made.
  EXPECT_EQ(refusal(false, e), "");
  ASSERT_FALSE(fs::exists(dir));

  fs::create_directory(dir);
  ASSERT_EQ(::chmod(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chown(dir.c_str(), kStranger, kStranger), 0);
  EXPECT_EQ(refusal(false, e), "");
  EXPECT_EQ(refusal(true, e), "");

  // Made by someone else (here: root).
  ASSERT_EQ(::chown(dir.c_str(), 0, 0), 0);
  EXPECT_NE(refusal(true, e).find("owned by uid 0, not by you"), std::string::npos) << refusal(true, e);
  // Another user may write to it.
  ASSERT_EQ(::chown(dir.c_str(), kStranger, kStranger), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  EXPECT_NE(refusal(true, e).find("mode 0777 lets others write there"), std::string::npos) << refusal(true, e);
  ASSERT_EQ(::chmod(dir.c_str(), 0720), 0);
  EXPECT_NE(refusal(false, e).find("mode 0720"), std::string::npos);
  // A link to a folder that would pass.
  const fs::path real = tmp / "real";
  fs::create_directory(real);
  ASSERT_EQ(::chmod(real.c_str(), 0700), 0);
  ASSERT_EQ(::chown(real.c_str(), kStranger, kStranger), 0);
  fs::remove(dir);
  fs::create_directory_symlink(real, dir);
  EXPECT_NE(refusal(true, e).find("not a directory"), std::string::npos) << refusal(true, e);

  // A client does not use a socket in a folder cuzkd would refuse.
  fs::remove(dir);
  fs::create_directory(dir);
  ASSERT_EQ(::chown(dir.c_str(), kStranger, kStranger), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  const fs::path sock = dir / "cuzkd.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, sock.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ::close(fd);
  const auto found = service::find_default_socket(e);
  EXPECT_TRUE(!found || *found != sock);
  ASSERT_EQ(::chmod(dir.c_str(), 0700), 0);
  EXPECT_EQ(service::find_default_socket(e), sock);
}

TEST(DaemonSocket, AMissingUsersFolderIsMadePrivate) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to run the check as another uid";
  TempDir tmp;
  ASSERT_EQ(::chmod(tmp.path().c_str(), 01777), 0);  // as /tmp
  const SocketEnvironment e = user(kStranger, tmp.path());
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::setgid(kStranger) != 0 || ::setuid(kStranger) != 0) ::_exit(3);
    ::_exit(refusal(true, e).empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  struct stat st{};
  ASSERT_EQ(::lstat((tmp / ("cuzk-" + std::to_string(kStranger))).c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_uid, kStranger);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST(DaemonSocket, RuntimeDirectoryMustExist) {
  TempDir tmp;
  SocketEnvironment e = user(1000, tmp.path());
  e.runtime_directory = (tmp / "gone").string();
  EXPECT_NE(refusal(true, e).find("($RUNTIME_DIRECTORY): no such directory"), std::string::npos);
  e.runtime_directory = tmp.path().string();
  EXPECT_EQ(refusal(true, e), "");
}

}  // namespace
}  // namespace cuzk::test
