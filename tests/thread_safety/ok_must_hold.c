// SPDX-License-Identifier: MIT
/*
 * Correct: the program's own annotated helpers: __must_hold and
 * __must_hold_shared called with the lock held, a lock wrapper with
 * __acquires/__releases, a trylock wrapper with __cond_acquires.
 */
#include <linux/mutex.h>
#include <linux/rwsem.h>

static DEFINE_MUTEX(lock);
static long total __guarded_by(lock);
static DECLARE_RWSEM(sem);
static int config __guarded_by(sem);

static void add_locked(long v) __must_hold(&lock);
static void add_locked(long v)
{
	total += v;
}

static int config_locked(void) __must_hold_shared(&sem);
static int config_locked(void)
{
	return config;
}

static void stats_lock(void) __acquires(&lock);
static void stats_lock(void)
{
	mutex_lock(&lock);
}

static void stats_unlock(void) __releases(&lock);
static void stats_unlock(void)
{
	mutex_unlock(&lock);
}

static int stats_trylock(void) __cond_acquires(1, &lock);
static int stats_trylock(void)
{
	return mutex_trylock(&lock);
}

static void config_read_lock(void) __acquires_shared(&sem);
static void config_read_lock(void)
{
	down_read(&sem);
}

static void config_read_unlock(void) __releases_shared(&sem);
static void config_read_unlock(void)
{
	up_read(&sem);
}

static int config_read_trylock(void) __cond_acquires_shared(1, &sem);
static int config_read_trylock(void)
{
	return down_read_trylock(&sem);
}

int add(long v)
{
	int c;

	stats_lock();
	add_locked(v);
	stats_unlock();
	if (stats_trylock()) {
		add_locked(v);
		stats_unlock();
	}
	config_read_lock();
	c = config_locked();
	config_read_unlock();
	if (config_read_trylock()) {
		c += config_locked();
		config_read_unlock();
	}
	return c;
}

static __no_context_analysis void unchecked(void)
{
	total = 0;	/* e.g. before any thread starts */
}

void reset(void)
{
	unchecked();
}
