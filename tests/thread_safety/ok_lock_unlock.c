// SPDX-License-Identifier: MIT
/*
 * Correct: mutex_lock and its _nested forms, then mutex_unlock; a lock
 * inside a struct, reached through __must_hold (clang 14 cannot
 * name a sibling member in __guarded_by in C).
 */
#include <linux/mutex.h>

struct account {
	struct mutex lock;
	long balance;
};

static DEFINE_MUTEX(big);
static long moved __guarded_by(big);

static void add_locked(struct account *a, long v) __must_hold(&a->lock);
static void add_locked(struct account *a, long v)
{
	a->balance += v;
}

void deposit(struct account *a, long v)
{
	mutex_lock(&a->lock);
	add_locked(a, v);
	mutex_unlock(&a->lock);
}

void transfer(struct account *from, struct account *to, long v)
{
	mutex_lock(&big);
	mutex_lock_nest_lock(&from->lock, &big);
	add_locked(from, -v);
	mutex_unlock(&from->lock);
	mutex_lock_nested(&to->lock, SINGLE_DEPTH_NESTING);
	add_locked(to, v);
	mutex_unlock(&to->lock);
	moved += v;
	mutex_unlock(&big);
}
