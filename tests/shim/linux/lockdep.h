/* SPDX-License-Identifier: MIT */
/* A project's <linux/lockdep.h>: lockdep stubbed out, its own
 * struct lock_class_key (empty, a GNU C extension), its own
 * debug_check_no_locks_*() functions. */
#ifndef __TOOLS_LINUX_LOCKDEP_H
#define __TOOLS_LINUX_LOCKDEP_H

struct lock_class_key {};
struct task_struct;

#define lock_acquire(l, s, t, r, c, n, i)	do { } while (0)
#define lock_release(l, i)			do { } while (0)
#define lockdep_init_map(lock, name, key, sub) \
	do { (void)(name); (void)(key); } while (0)
#define lockdep_set_class(lock, key)		do { (void)(key); } while (0)
#define lockdep_set_class_and_name(lock, key, name) \
	do { (void)(key); (void)(name); } while (0)
#define lockdep_set_novalidate_class(lock)	do { } while (0)
#define lockdep_assert_held(l)			do { (void)(l); } while (0)
#define lockdep_assert_held_once(l)		do { (void)(l); } while (0)

static inline void debug_check_no_locks_freed(const void *from,
					      unsigned long len)
{
	(void)from;
	(void)len;
}

static inline void debug_check_no_locks_held(void)
{
}

static inline int lock_class_is_held(struct lock_class_key *k)
{
	(void)k;
	return 0;
}

#endif
