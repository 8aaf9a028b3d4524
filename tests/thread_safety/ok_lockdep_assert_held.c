// SPDX-License-Identifier: MIT
/*
 * Correct: a function that asserts, rather than declares, that its
 * caller holds the lock: lockdep_assert_held() tells the analysis.
 */
#include <linux/mutex.h>

static DEFINE_MUTEX(lock);
static int entries __guarded_by(lock);

void cache_add(void)
{
	lockdep_assert_held(&lock);
	entries++;
}

struct cache {
	struct mutex lock;
	int entries;
};

static void touch(struct cache *c) __must_hold(&c->lock);
static void touch(struct cache *c)
{
	c->entries++;
}

void cache_touch(struct cache *c)
{
	lockdep_assert_held(&c->lock);
	touch(c);
}
