// SPDX-License-Identifier: MIT
#include "CachedStore.h"
#include "core/StoreFactory.h"

#include <filesystem>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

#include <fcntl.h>

namespace radt::test {

namespace fs = std::filesystem;

namespace {

/// Identifies this build of the test executable: its size and modification time.
std::string executableStamp() {
    const fs::path self = fs::read_symlink("/proc/self/exe");
    const auto modified = fs::last_write_time(self).time_since_epoch().count();
    return self.filename().string() + "-" + std::to_string(fs::file_size(self)) + "-" +
           std::to_string(modified);
}

/// An exclusive flock on a file, released when it goes.
class FileLock {
public:
    explicit FileLock(const std::string& path)
        : m_fd(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644)) {
        if (m_fd < 0 || ::flock(m_fd, LOCK_EX) != 0)
            throw std::runtime_error("cannot lock " + path);
    }
    ~FileLock() { ::close(m_fd); }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

private:
    int m_fd;
};

} // namespace

std::string copyOfCachedStore(const std::string& name, const std::function<void(Store&)>& build,
                              const std::string& destination) {
    const fs::path dir = fs::path(RADT_BINARY_DIR) / "tests" / "store-cache";
    fs::create_directories(dir);
    const std::string prefix = name + "@";
    const fs::path cached = dir / (prefix + executableStamp() + ".db");
    {
        const FileLock lock((dir / (name + ".lock")).string());
        if (!fs::exists(cached)) {
            // Stores of earlier builds of this name are stale: they go before the new one is made.
            for (const fs::directory_entry& entry : fs::directory_iterator(dir))
                if (entry.path().filename().string().rfind(prefix, 0) == 0)
                    fs::remove(entry.path());
            const fs::path building = dir / (prefix + "building.db");
            fs::remove(building);
            {
                // Closing the store checkpoints its WAL: the cached file is the whole store.
                auto store = openStore("sqlite:///" + building.string(), OpenMode::CreateIfMissing);
                build(*store);
            }
            if (fs::exists(building.string() + "-wal"))
                throw std::runtime_error("the WAL of " + building.string() + " outlived its store");
            fs::remove(building.string() + "-shm");
            fs::rename(building, cached);
        }
    }
    fs::copy_file(cached, destination, fs::copy_options::overwrite_existing);
    return destination;
}

} // namespace radt::test
