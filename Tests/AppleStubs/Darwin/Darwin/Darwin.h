// Stub of Apple's `Darwin` module, for type-checking ClosureKit's Apple branches on Linux only
// (Scripts/typecheck-apple.sh). Never compiled into anything that runs.
//
// On `-I`, this module makes `canImport(Darwin)` true on Linux, so the `#if canImport(Darwin)`
// branches are the ones type-checked. It declares only what ClosureKit's platform seams use, and
// every declaration is transcribed from Apple's open-source headers, named above each group as
// `repository: path @ tag`:
//   apple-oss-distributions/libpthread @ libpthread-539
//   apple-oss-distributions/xnu        @ xnu-11417.101.15
//   apple-oss-distributions/Libc       @ Libc-1725.0.11
//   apple-oss-distributions/libplatform @ libplatform-375.100.10
// Types are written with their final underlying types (Apple's chain of `__darwin_` typedefs is
// kept only where Swift sees the name). A call to anything not declared here fails the check,
// as it would fail on Apple if the headers lacked it.
//
// Scripts/compare-stubs.sh compares every declaration here with what Swift imports from the SDK.
// Known differences from the real SDK: variadic `fcntl` comes from the Swift overlay
// (Overlays/Darwin.swift), as on Apple; function-like macros (`sigemptyset(set)`) are not
// transcribed because Swift does not import them.
#pragma once

#define __dead2 __attribute__((__noreturn__))
#define __PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC(msg) \
  __attribute__((__swift_attr__("@_unavailableFromAsync(message: \"" msg "\")")))

// xnu: bsd/i386/_types.h and bsd/arm/_types.h @ xnu-11417.101.15 (LP64)
typedef unsigned char __uint8_t;
typedef unsigned short __uint16_t;
typedef int __int32_t;
typedef unsigned int __uint32_t;
typedef long __darwin_ssize_t;
typedef unsigned long __darwin_size_t;
typedef __uint32_t __darwin_socklen_t;

// xnu: bsd/sys/_types.h @ xnu-11417.101.15
typedef __uint32_t __darwin_sigset_t;

// xnu: bsd/sys/_types/_size_t.h, _ssize_t.h, _sigset_t.h, _socklen_t.h, _sa_family_t.h,
// _in_addr_t.h, _in_port_t.h @ xnu-11417.101.15
typedef __darwin_size_t size_t;
typedef __darwin_ssize_t ssize_t;
typedef __darwin_sigset_t sigset_t;
typedef __darwin_socklen_t socklen_t;
typedef __uint8_t sa_family_t;
typedef __uint32_t in_addr_t;
typedef __uint16_t in_port_t;

// ---------------------------------------------------------------------------------------------
// libpthread: include/sys/_pthread/_pthread_types.h @ libpthread-539 (__LP64__ sizes)
#define __PTHREAD_SIZE__ 8176
#define __PTHREAD_ATTR_SIZE__ 56
#define __PTHREAD_MUTEXATTR_SIZE__ 8
#define __PTHREAD_MUTEX_SIZE__ 56
#define __PTHREAD_CONDATTR_SIZE__ 8
#define __PTHREAD_COND_SIZE__ 40
struct __darwin_pthread_handler_rec {
  void (*__routine)(void *);
  void *__arg;
  struct __darwin_pthread_handler_rec *__next;
};
struct _opaque_pthread_attr_t {
  long __sig;
  char __opaque[__PTHREAD_ATTR_SIZE__];
};
struct _opaque_pthread_cond_t {
  long __sig;
  char __opaque[__PTHREAD_COND_SIZE__];
};
struct _opaque_pthread_condattr_t {
  long __sig;
  char __opaque[__PTHREAD_CONDATTR_SIZE__];
};
struct _opaque_pthread_mutex_t {
  long __sig;
  char __opaque[__PTHREAD_MUTEX_SIZE__];
};
struct _opaque_pthread_mutexattr_t {
  long __sig;
  char __opaque[__PTHREAD_MUTEXATTR_SIZE__];
};
struct _opaque_pthread_t {
  long __sig;
  struct __darwin_pthread_handler_rec *__cleanup_stack;
  char __opaque[__PTHREAD_SIZE__];
};
// libpthread: include/sys/_pthread/_pthread_t.h, _pthread_attr_t.h, _pthread_mutex_t.h,
// _pthread_mutexattr_t.h, _pthread_cond_t.h, _pthread_condattr_t.h @ libpthread-539
typedef struct _opaque_pthread_t *pthread_t;
typedef struct _opaque_pthread_attr_t pthread_attr_t;
typedef struct _opaque_pthread_mutex_t pthread_mutex_t;
typedef struct _opaque_pthread_mutexattr_t pthread_mutexattr_t;
typedef struct _opaque_pthread_cond_t pthread_cond_t;
typedef struct _opaque_pthread_condattr_t pthread_condattr_t;
// libpthread: include/sys/_pthread/_pthread_types.h and _pthread_key_t.h @ libpthread-539
typedef unsigned long __darwin_pthread_key_t;
typedef __darwin_pthread_key_t pthread_key_t;

// libpthread: include/pthread/pthread.h (iPhoneOS16.5.sdk). The whole header is inside
// `clang assume_nonnull`. `pthread_create` is the *compatibility* variant: the header defines
// `_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT` as `defined(SWIFT_CLASS_EXTRA) && (...)` without
// parentheses, so `#if !_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT` negates only the first term,
// and the Swift compiler defines `SWIFT_CLASS_EXTRA` for every Darwin target. Swift imports
// `(UnsafeMutablePointer<pthread_t?>, UnsafePointer<pthread_attr_t>?,
// @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)`:
// the start routine's context is NOT optional (`swift-synthesize-interface` on the SDK's Darwin
// module prints exactly that; Scripts/compare-stubs.sh checks it).
// The mutex types, from the same header's `#define`s.
#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_ERRORCHECK 1
#pragma clang assume_nonnull begin
int pthread_cond_broadcast(pthread_cond_t *);
int pthread_cond_destroy(pthread_cond_t *);
int pthread_cond_init(pthread_cond_t *__restrict, const pthread_condattr_t *_Nullable __restrict);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC("Use an asynchronous wait instead of a synchronous wait")
int pthread_cond_wait(pthread_cond_t *__restrict, pthread_mutex_t *__restrict);
int pthread_create(pthread_t *__restrict, const pthread_attr_t *_Nullable __restrict,
                   void *(*_Nonnull)(void *), void *_Nullable __restrict);
int pthread_detach(pthread_t);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC("Use Task Local Values instead")
void *_Nullable pthread_getspecific(pthread_key_t);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC("Use an asynchronous wait instead of a synchronous wait")
int pthread_join(pthread_t, void *_Nullable *_Nullable);
int pthread_key_create(pthread_key_t *, void (*_Nullable)(void *));
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_mutex_init(pthread_mutex_t *__restrict, const pthread_mutexattr_t *_Nullable __restrict);
int pthread_mutexattr_destroy(pthread_mutexattr_t *);
int pthread_mutexattr_init(pthread_mutexattr_t *);
int pthread_mutexattr_settype(pthread_mutexattr_t *, int);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC(
  "Use OSAllocatedUnfairLock's withLock or NSLock for async-safe scoped locking")
int pthread_mutex_lock(pthread_mutex_t *);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC(
  "Use OSAllocatedUnfairLock's withLock or NSLock for async-safe scoped locking")
int pthread_mutex_unlock(pthread_mutex_t *);
pthread_t pthread_self(void);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC("Use Task Local Values instead")
int pthread_setspecific(pthread_key_t, const void *_Nullable);
#pragma clang assume_nonnull end

// libplatform: include/os/lock.h @ libplatform-375.100.10 (the header is inside
// `OS_ASSUME_NONNULL_BEGIN`). Its `OS_SWIFT_UNAVAILABLE_FROM_ASYNC(msg)` is written here with the
// expansion of libpthread's macro above (the same `swift_attr`); os/base.h is not transcribed.
typedef struct os_unfair_lock_s {
  unsigned int _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;
#pragma clang assume_nonnull begin
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC(
  "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
void os_unfair_lock_lock(os_unfair_lock_t lock);
__PTHREAD_SWIFT_UNAVAILABLE_FROM_ASYNC(
  "Use OSAllocatedUnfairLock.performWhileLocked() for async-safe scoped locking")
void os_unfair_lock_unlock(os_unfair_lock_t lock);
// os/lock.h (iPhoneOS16.5.sdk): traps if the calling thread holds (or does not hold) the lock.
void os_unfair_lock_assert_owner(const os_unfair_lock *lock);
void os_unfair_lock_assert_not_owner(const os_unfair_lock *lock);
#pragma clang assume_nonnull end

// libpthread: include/sys/qos.h @ libpthread-539 (`__QOS_ENUM` with `objc_fixed_enum`, which
// clang has: a fixed-type enum, imported by Swift as the struct `qos_class_t`)
typedef enum : unsigned int {
  QOS_CLASS_USER_INTERACTIVE = 0x21,
  QOS_CLASS_USER_INITIATED = 0x19,
  QOS_CLASS_DEFAULT = 0x15,
  QOS_CLASS_UTILITY = 0x11,
  QOS_CLASS_BACKGROUND = 0x09,
  QOS_CLASS_UNSPECIFIED = 0x00,
} qos_class_t;

// libpthread: include/pthread/qos.h @ libpthread-539
int pthread_set_qos_class_self_np(qos_class_t __qos_class, int __relative_priority);

// ---------------------------------------------------------------------------------------------
// xnu: bsd/sys/errno.h @ xnu-11417.101.15 (`errno` itself is `(*__error())`, which Swift reads
// through the overlay's `errno` variable)
extern int *__error(void);
#define EINTR 4
#define EDEADLK 11
#define EAGAIN 35

// xnu: bsd/sys/signal.h @ xnu-11417.101.15
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGPIPE 13
#define SIGTERM 15
#define SIG_BLOCK 1
// `struct __siginfo` is complete in the SDK (a typed pointer in `__sa_sigaction`, not an
// OpaquePointer): transcribed whole from bsd/sys/signal.h (iPhoneOS16.5.sdk).
union sigval {
  int sival_int;
  void *sival_ptr;
};
typedef struct __siginfo {
  int si_signo;
  int si_errno;
  int si_code;
  int si_pid;
  unsigned int si_uid;
  int si_status;
  void *si_addr;
  union sigval si_value;
  long si_band;
  unsigned long __pad[7];
} siginfo_t;
union __sigaction_u {
  void (*__sa_handler)(int);
  void (*__sa_sigaction)(int, struct __siginfo *, void *);
};
struct sigaction {
  union __sigaction_u __sigaction_u;
  sigset_t sa_mask;
  int sa_flags;
};

// Libc: include/signal.h @ Libc-1725.0.11
int raise(int);
// The SDK's Darwin.apinotes makes both sets nullable.
int pthread_sigmask(int, const sigset_t *_Nullable, sigset_t *_Nullable);
int sigaction(int, const struct sigaction *__restrict, struct sigaction *__restrict);
int sigaddset(sigset_t *, int);
int sigemptyset(sigset_t *);

// xnu: bsd/sys/termios.h @ xnu-11417.101.15 (tcflag_t and speed_t are `unsigned long`: UInt)
#define VMIN 16
#define VTIME 17
#define NCCS 20
#define INLCR 0x00000040
#define ICRNL 0x00000100
#define IXON 0x00000200
#define ECHO 0x00000008
#define ISIG 0x00000080
#define ICANON 0x00000100
#define IEXTEN 0x00000400
#define TCSANOW 0
typedef unsigned long tcflag_t;
typedef unsigned char cc_t;
typedef unsigned long speed_t;
struct termios {
  tcflag_t c_iflag;
  tcflag_t c_oflag;
  tcflag_t c_cflag;
  tcflag_t c_lflag;
  cc_t c_cc[NCCS];
  speed_t c_ispeed;
  speed_t c_ospeed;
};
int tcgetattr(int, struct termios *);
int tcsetattr(int, int, const struct termios *);

// xnu: bsd/sys/ttycom.h @ xnu-11417.101.15 (TIOCGWINSZ is `_IOR('t', 104, struct winsize)`, a
// function-like macro Swift cannot import: the Swift overlay declares it, see Overlays/Darwin.swift)
struct winsize {
  unsigned short ws_row;
  unsigned short ws_col;
  unsigned short ws_xpixel;
  unsigned short ws_ypixel;
};

// xnu: bsd/sys/poll.h @ xnu-11417.101.15
#define POLLIN 0x0001
#define POLLNVAL 0x0020
struct pollfd {
  int fd;
  short events;
  short revents;
};
typedef unsigned int nfds_t;
extern int poll(struct pollfd *, nfds_t, int);

// xnu: bsd/sys/fcntl.h @ xnu-11417.101.15 (`fcntl` itself is variadic: see Overlays/Darwin.swift)
#define F_GETFD 1
#define F_SETFD 2
#define FD_CLOEXEC 1

// xnu: bsd/sys/socket.h @ xnu-11417.101.15 (SOCK_STREAM is a plain `int` macro: Int32 in Swift)
#define SOCK_STREAM 1
#define SO_REUSEADDR 0x0004
#define SO_NOSIGPIPE 0x1022
#define SOL_SOCKET 0xffff
#define AF_INET 2
#define MSG_NOSIGNAL 0x80000
#define SHUT_RDWR 2
struct sockaddr {
  __uint8_t sa_len;
  sa_family_t sa_family;
  char sa_data[14];
};
int accept(int, struct sockaddr *__restrict, socklen_t *__restrict);
int bind(int, const struct sockaddr *, socklen_t);
int getsockname(int, struct sockaddr *__restrict, socklen_t *__restrict);
int listen(int, int);
ssize_t recv(int, void *, size_t, int);
ssize_t send(int, const void *, size_t, int);
int setsockopt(int, int, int, const void *, socklen_t);
int shutdown(int, int);
int socket(int, int, int);

// xnu: bsd/netinet/in.h @ xnu-11417.101.15
struct in_addr {
  in_addr_t s_addr;
};
struct sockaddr_in {
  __uint8_t sin_len;
  sa_family_t sin_family;
  in_port_t sin_port;
  struct in_addr sin_addr;
  char sin_zero[8];
};

// Libc: include/arpa/inet.h @ Libc-1725.0.11
in_addr_t inet_addr(const char *);

// Libc: include/unistd.h @ Libc-1725.0.11
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
int close(int);
int isatty(int);
int pipe(int[2]);
ssize_t read(int, void *, size_t);
ssize_t write(int __fd, const void *__buf, size_t __nbyte);

// Libc: include/_stdio.h (iPhoneOS16.5.sdk): `FILE` is complete, so `fflush` takes an
// `UnsafeMutablePointer<FILE>!`, not an OpaquePointer; transcribed whole.
struct __sbuf {
  unsigned char *_base;
  int _size;
};
struct __sFILEX;
typedef long long fpos_t;
typedef struct __sFILE {
  unsigned char *_p;
  int _r;
  int _w;
  short _flags;
  short _file;
  struct __sbuf _bf;
  int _lbfsize;
  void *_cookie;
  int (*_Nullable _close)(void *);
  int (*_Nullable _read)(void *, char *, int);
  fpos_t (*_Nullable _seek)(void *, fpos_t, int);
  int (*_Nullable _write)(void *, const char *, int);
  struct __sbuf _ub;
  struct __sFILEX *_extra;
  int _ur;
  unsigned char _ubuf[3];
  unsigned char _nbuf[1];
  struct __sbuf _lb;
  int _blksize;
  fpos_t _offset;
} FILE;
int fflush(FILE *);

// Libc: include/_stdlib.h @ Libc-1725.0.11
void exit(int) __dead2;
