/* clockstep_shim.c: an LD_PRELOAD library for tests/integration/clockstep.sh
 * that steps the wall clock. clock_gettime(CLOCK_REALTIME*), gettimeofday and
 * time return the real time plus an offset in seconds (an integer, negative
 * to step back) read on every call from the file $CELLFS_CLOCK_OFFSET_FILE,
 * so a test moves the clock of a running daemon by rewriting that file.
 * No file, or no number in it: no offset. Monotonic clocks are untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec*);

static clock_gettime_fn real_clock_gettime(void) {
  static clock_gettime_fn real;
  if (real == NULL) real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
  return real;
}

/* The offset in seconds; 0 when the file is missing or unreadable. Plain
 * system calls only: this runs inside time functions of any thread. */
static long long offset_seconds(void) {
  const char* path = getenv("CELLFS_CLOCK_OFFSET_FILE");
  if (path == NULL) return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[32];
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  return strtoll(text, NULL, 10);
}

int clock_gettime(clockid_t clock, struct timespec* ts) {
  int rc = real_clock_gettime()(clock, ts);
  if (rc == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
    ts->tv_sec += offset_seconds();
  }
  return rc;
}

/* glibc marks `tv` nonnull, but callers may still pass NULL. */
#pragma GCC diagnostic ignored "-Wnonnull-compare"
int gettimeofday(struct timeval* tv, void* tz) {
  struct timespec ts;
  int rc = clock_gettime(CLOCK_REALTIME, &ts);
  if (rc == 0 && tv != NULL) {
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
  }
  if (tz != NULL) {
    struct timezone* zone = tz;
    zone->tz_minuteswest = 0;
    zone->tz_dsttime = 0;
  }
  return rc;
}

time_t time(time_t* out) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}
