/* Test image only: the update service that fires at boot, as uupd,
 * rpm-ostreed-automatic and bootc-fetch-apply-updates do on Fedora Atomic.
 *
 *   vm-update-holder MAX_SECONDS [AFTER_WAIT_SECONDS]
 *
 * Takes the sysroot lock with ostree_sysroot_lock (blocking, as rpm-ostree
 * and bootc take it for a whole upgrade, download included) and holds it
 * until bootbench is about to take it, then AFTER_WAIT_SECONDS more: its run
 * log (results/NAME/bootbench.log, read from where it ended when the holder
 * started: this boot's lines) says "switching the default to" or "putting
 * the machine back", and bootbench asks for the lock right after (its "is locked by another process" line
 * goes to the journal only, which the reference policy does not let a
 * service's journalctl read) (default 10); at most MAX_SECONDS in
 * all. A fixed time missed bootbench on a busy machine (it reaches the lock
 * after its benches, 12 s to 60 s after the holder took it), and the night's
 * trap is that bootbench must wait. Then it releases the lock and exits 0;
 * the unit then stages a new deployment with `ostree admin deploy --stage`.
 * /sysroot is read-only for the system:
 * like the ostree CLI it takes a private mount namespace first. Stopping the
 * unit (SIGTERM, default action) ends it at once and the kernel drops the
 * lock with the file descriptor. Lines go to /dev/console for the harness. */
#include <ostree.h>
#include <stdio.h>
#include <stdlib.h>
#include <glob.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void say(const char *what)
{
  FILE *console = fopen("/dev/console", "w");
  struct timespec up;
  clock_gettime(CLOCK_BOOTTIME, &up);
  if (console == NULL)
    console = stderr;
  fprintf(console, "BOOTBENCH-VM update: %s (uptime %ld s)\n", what, (long)up.tv_sec);
  fflush(console);
  if (console != stderr)
    fclose(console);
}

static int fail(const char *what, GError *error)
{
  char line[512];
  snprintf(line, sizeof line, "%s FAILED: %s", what, error ? error->message : "?");
  say(line);
  return 1;
}

#define RUN_LOGS "/var/lib/bootbench/results/*/bootbench.log"
/* The run log's lines that come right before bootbench asks for the lock:
 * before the switch to the next run, and before the restore. */
static const char *const WAIT_LINES[] = {"switching the default to", "putting the machine back"};

/* Where each run log ended when the holder started: only what bootbench
 * writes after that is this boot's. */
static glob_t logs;
static long *log_start;

static long file_size(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static void note_log_ends(void)
{
  if (glob(RUN_LOGS, 0, NULL, &logs) != 0)
    return;
  log_start = static_cast<long *>(calloc(logs.gl_pathc, sizeof *log_start));
  for (size_t i = 0; log_start != NULL && i < logs.gl_pathc; i++)
    log_start[i] = file_size(logs.gl_pathv[i]);
}

/* Whether one run log says, after `from`, that bootbench switches. */
static int log_says_waiting(const char *path, long from)
{
  FILE *log = fopen(path, "r");
  char line[1024];
  int seen = 0;
  if (log == NULL)
    return 0;
  if (fseek(log, from, SEEK_SET) == 0)
    while (!seen && fgets(line, sizeof line, log) != NULL)
      for (size_t i = 0; i < sizeof WAIT_LINES / sizeof *WAIT_LINES; i++)
        seen = seen || strstr(line, WAIT_LINES[i]) != NULL;
  fclose(log);
  return seen;
}

/* Whether bootbench said in this boot that it is about to take the lock. */
static int bootbench_waits(void)
{
  for (size_t i = 0; log_start != NULL && i < logs.gl_pathc; i++)
    if (log_says_waiting(logs.gl_pathv[i], log_start[i]))
      return 1;
  return 0;
}

static long now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long)t.tv_sec;
}

/* Holds until bootbench is about to take the lock and after_wait seconds more, or max seconds
 * in all (the run logs are read every 2 s). */
static void hold(long max, long after_wait)
{
  long end = now_s() + max;
  while (now_s() < end && !bootbench_waits())
    sleep(2);
  if (now_s() >= end)
    return;
  say("bootbench is about to take the lock");
  if (now_s() + after_wait < end)
    end = now_s() + after_wait;
  while (now_s() < end)
    sleep(1);
}

int main(int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  long seconds = argc > 1 ? atol(argv[1]) : 90;
  long after_wait = argc > 2 ? atol(argv[2]) : 10;
  g_autoptr(OstreeSysroot) sysroot = ostree_sysroot_new_default();
  if (!ostree_sysroot_initialize_with_mount_namespace(sysroot, NULL, &error))
    return fail("mount namespace", error);
  note_log_ends();
  say("waiting for the sysroot lock");
  if (!ostree_sysroot_lock(sysroot, &error))
    return fail("ostree_sysroot_lock", error);
  say("holding the sysroot lock");
  hold(seconds, after_wait);
  ostree_sysroot_unlock(sysroot);
  say("released the sysroot lock");
  return 0;
}
