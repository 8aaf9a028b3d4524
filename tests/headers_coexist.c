// SPDX-License-Identifier: MIT
/*
 * headers_coexist.c - kmutex's public headers define the lock API and
 * nothing else of the kernel's, so they sit beside a project's own
 * kernel shims.
 *
 * This file is such a project: before any kmutex header it defines its
 * own struct list_head and list operations, atomic_t, container_of,
 * likely(), READ_ONCE(), bool/true/false the way <linux/types.h> does,
 * a spinlock, current, jiffies ... as a port of kernel code carries
 * them.  Then it includes all seven public headers, twice, in two
 * different orders, with the headers that pull in the others first.
 * If a header defined any of those names (or a macro here broke a
 * header), this would not compile; if the two sets of definitions got
 * mixed up, the run-time checks below would fail.
 *
 * With -DKMUTEX_TEST_SHIMS (tests/headers_shims.sh) the project's shims
 * are headers instead, in tests/shim/linux/, modelled on bcachefs-tools':
 * <linux/lockdep.h> with its own struct lock_class_key, lockdep_*() and
 * debug_check_no_locks_*(), <linux/jiffies.h> with msecs_to_jiffies(),
 * <linux/compiler.h> with empty __acquires ..., <linux/list.h>,
 * <linux/spinlock.h>, <linux/wait.h>, and a <linux/cleanup.h> of the
 * kernel's shape (where the shims' -I comes first, kmutex's lock
 * headers build their guards with it; found on bcachefs-tools: they
 * did not compile there); included before kmutex's with
 * -DKMUTEX_TEST_SHIMS_FIRST, else only after them (kmutex's headers
 * then include them, as the kernel's do).  Every guard class of the
 * lock headers is used, with either cleanup.h.
 */

/* --- the project's own kernel shims ------------------------------------ */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef KMUTEX_TEST_SHIMS
#ifdef KMUTEX_TEST_SHIMS_FIRST
#include <linux/cleanup.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#endif
#include <linux/atomic.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define might_sleep()		do { } while (0)

struct task_struct {
	int pid;
};

static struct task_struct shim_task = { .pid = 1 };

static inline struct task_struct *get_current(void)
{
	return &shim_task;
}

#define current get_current()
#else /* !KMUTEX_TEST_SHIMS: the shims written out here */

typedef _Bool bool;			/* <linux/types.h> */
enum { false = 0, true = 1 };		/* <linux/stddef.h> */
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define __must_check		__attribute__((__warn_unused_result__))
#define __maybe_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __cold			__attribute__((__cold__))
#define __cleanup(func)		__attribute__((__cleanup__(func)))
#define noinline		__attribute__((__noinline__))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define BUG_ON(c)		do { if (c) abort(); } while (0)
#define might_sleep()		do { } while (0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* <linux/list.h> */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	entry->next = entry->prev = NULL;
}

static inline int list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_first_entry_or_null(ptr, type, member) \
	(list_empty(ptr) ? NULL : list_first_entry(ptr, type, member))
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/* <linux/atomic.h> */
typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i)		{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST) == 0;
}

/* <linux/spinlock.h>, <linux/sched.h>, <linux/jiffies.h> */
typedef struct {
	int locked;
} spinlock_t;

#define DEFINE_SPINLOCK(x)	spinlock_t x = { 0 }

static inline void spin_lock(spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		;
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

struct task_struct {
	int pid;
};

static struct task_struct shim_task = { .pid = 1 };

static inline struct task_struct *get_current(void)
{
	return &shim_task;
}

#define current get_current()

extern volatile unsigned long jiffies;	/* declared, never used */
#endif /* !KMUTEX_TEST_SHIMS */

/* --- kmutex, twice, in two orders ---------------------------------------- */
#include <linux/ww_mutex.h>
#include <linux/cleanup.h>
#include <linux/completion.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>

#include <linux/percpu-rwsem.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/rwsem.h>
#include <linux/completion.h>
#include <linux/cleanup.h>
#include <linux/ww_mutex.h>

#ifdef KMUTEX_TEST_SHIMS
/* The project's headers after kmutex's: no redefinition, no warning. */
#include <linux/lockdep.h>
#include <linux/jiffies.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <sys/wait.h>
#endif

/* --- both at work ---------------------------------------------------------- */
#include <errno.h>
#include <pthread.h>

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			exit(1);					\
		}							\
	} while (0)

struct item {
	int value;
	struct list_head node;		/* the project's list ... */
};

struct bucket {
	struct mutex lock;		/* ... guarded by kmutex's locks */
	struct rw_semaphore rw;
	struct semaphore slots;
	struct completion filled;
	struct list_head items;
	atomic_t n;
};

static DEFINE_MUTEX(global_lock);
static DEFINE_SEMAPHORE(global_sem, 2);
static DECLARE_RWSEM(global_rw);
static DECLARE_COMPLETION(global_done);
static LIST_HEAD(global_items);
static DEFINE_SPINLOCK(global_spin);
DEFINE_STATIC_PERCPU_RWSEM(global_pcpu);

static void *filler(void *arg)
{
	struct bucket *b = arg;
	static struct item items[8];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(items); i++) {
		items[i].value = (int)i;
		down(&b->slots);
		scoped_guard(mutex, &b->lock)
			list_add_tail(&items[i].node, &b->items);
		atomic_inc(&b->n);
		up(&b->slots);
	}
	complete(&b->filled);
	return NULL;
}

int main(void)
{
	struct bucket b;
	struct item *it, extra = { .value = 100 };
	pthread_t t;
	int sum = 0, n = 0;

	mutex_init(&b.lock);
	init_rwsem(&b.rw);
	sema_init(&b.slots, 1);
	init_completion(&b.filled);
	INIT_LIST_HEAD(&b.items);
	atomic_set(&b.n, 0);

	CHECK(pthread_create(&t, NULL, filler, &b) == 0);
	wait_for_completion(&b.filled);
	CHECK(pthread_join(t, NULL) == 0);

	scoped_guard(rwsem_read, &b.rw)
		list_for_each_entry(it, &b.items, node) {
			sum += it->value;
			n++;
		}
	CHECK(n == 8 && sum == 28);
	CHECK(atomic_read(&b.n) == 8);
	while (!atomic_dec_and_test(&b.n))
		n--;
	CHECK(n == 1);
	CHECK(list_first_entry(&b.items, struct item, node)->value == 0);

	/* The statically defined ones, beside the project's own. */
	CHECK(mutex_trylock(&global_lock));
	list_add(&extra.node, &global_items);
	mutex_unlock(&global_lock);
	CHECK(!list_empty(&global_items));
	CHECK(list_first_entry_or_null(&global_items, struct item,
				       node)->value == 100);
	list_del(&extra.node);
	CHECK(list_empty(&global_items));

	CHECK(down_trylock(&global_sem) == 0);
	CHECK(down_trylock(&global_sem) == 0);
	CHECK(down_trylock(&global_sem) == 1);
	CHECK(down_timeout(&global_sem, msecs_to_jiffies(1)) == -ETIME);
	up(&global_sem);
	up(&global_sem);

	CHECK(down_write_trylock(&global_rw));
	CHECK(rwsem_is_locked(&global_rw));
	up_write(&global_rw);
	CHECK(!rwsem_is_locked(&global_rw));

	/* Every guard class of the lock headers, with either cleanup.h. */
	{
		int ran = 0;

		scoped_guard(mutex_try, &global_lock) {
			CHECK(mutex_is_locked(&global_lock));
			scoped_guard(mutex_try, &global_lock)
				ran = -100;	/* held: must not run */
			ran++;
		}
		scoped_guard(mutex_intr, &global_lock)
			ran++;
		scoped_guard(semaphore, &global_sem)
			ran++;
		scoped_guard(semaphore_try, &global_sem)
			ran++;
		scoped_guard(semaphore_intr, &global_sem)
			ran++;
		scoped_guard(rwsem_read_intr, &global_rw)
			ran++;
		scoped_guard(rwsem_write_try, &global_rw)
			ran++;
		scoped_guard(rwsem_write_kill, &global_rw)
			ran++;
		scoped_guard(rwsem_write, &global_rw)
			ran++;
		scoped_guard(rwsem_read_try, &global_rw)
			ran++;
		scoped_guard(percpu_write, &global_pcpu) {
			scoped_guard(percpu_read_try, &global_pcpu)
				ran = -100;	/* held: must not run */
			ran++;
		}
		scoped_guard(percpu_read_try, &global_pcpu)
			ran++;
		scoped_guard(percpu_read, &global_pcpu)
			ran++;
		CHECK(ran == 13);
		CHECK(!mutex_is_locked(&global_lock));
		CHECK(!rwsem_is_locked(&global_rw));
		CHECK(percpu_down_read_trylock(&global_pcpu));
		percpu_up_read(&global_pcpu);
	}

	CHECK(!completion_done(&global_done));
	complete_all(&global_done);
	wait_for_completion(&global_done);
	CHECK(wait_for_completion_timeout(&global_done, HZ) == HZ);

	{
		static DEFINE_WW_CLASS(shim_ww_class);
		struct ww_acquire_ctx ctx;
		struct ww_mutex ww;

		ww_mutex_init(&ww, &shim_ww_class);
		ww_acquire_init(&ctx, &shim_ww_class);
		CHECK(ww_mutex_lock(&ww, &ctx) == 0);
		CHECK(ww_mutex_lock(&ww, &ctx) == -EALREADY);
		ww_mutex_unlock(&ww);
		ww_acquire_fini(&ctx);
	}

	spin_lock(&global_spin);
	spin_unlock(&global_spin);
	CHECK(current->pid == 1);
	CHECK(likely(true) && !unlikely(false));
	CHECK(max(min(3, 4), 2) == 3);
	barrier();
	might_sleep();

#ifdef KMUTEX_TEST_SHIMS
	{
		/* The project's names are the project's. */
		static struct lock_class_key key;
		raw_spinlock_t raw;
		wait_queue_head_t wq;
		idtype_t idtype = P_ALL;	/* <sys/wait.h>'s enum */

		CHECK(project_jiffies_marker() == 42);
		CHECK(sizeof(key) == 0);	/* the shim's empty struct */
		CHECK(!lock_class_is_held(&key));
		lockdep_set_class(&b.lock, &key);
		lockdep_set_novalidate_class(&b.rw);
		mutex_lock(&b.lock);
		lockdep_assert_held(&b.lock);
		mutex_unlock(&b.lock);
		debug_check_no_locks_freed(&b, sizeof(b));
		debug_check_no_locks_held();
		raw_spin_lock_init(&raw);
		raw_spin_lock(&raw);
		raw_spin_unlock(&raw);
		init_waitqueue_head(&wq);
		CHECK(list_empty(&wq.head));
		CHECK(idtype == P_ALL);
	}
#endif
	printf("kmutex's headers and the project's kernel shims coexist\n");
	return 0;
}
