// Ending a command before the kernel has taken back what it holds.
#pragma once

namespace cuzk::cli {

// Ends the process with `status`: stdio flushed, its standard streams closed,
// and the release of everything else it holds (a GPU context with its device
// and page-locked memory, the key's mapping) left to a helper process that
// shares its memory and open files and ends the moment it has. The caller of
// a one-shot proof gets the exit status once the outputs are written, not
// after the driver's teardown. On an H100 host (2026-12-07) one run of three
// so ended 6 ms after its outputs and two 205 ms after, as long as those that
// waited: which part of the wait the helper does not take is still to be
// found (CUZK_TIMING prints whether it started). The GPU's
// memory is free a little later than the status: CUZK_WAIT_TEARDOWN=1 ends
// the process itself, for a caller that starts a GPU program right after and
// needs all of it. Where the helper cannot be made, the process ends itself.
// No destructor runs: the command's files must be written and closed.
[[noreturn]] void exit_leaving_teardown(int status);

}  // namespace cuzk::cli
