/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_BASE_COMPILER_H
#define VB_BASE_COMPILER_H

/* Small macros used everywhere. */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED	      __attribute__((unused))
#define NORETURN      __attribute__((noreturn))
#define NOINLINE      __attribute__((noinline))
#define PRINTF(f, a)  __attribute__((format(printf, f, a)))
#define CACHELINE     64

#endif /* VB_BASE_COMPILER_H */
