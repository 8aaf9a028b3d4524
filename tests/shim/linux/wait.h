/* SPDX-License-Identifier: MIT */
/* A project's <linux/wait.h>: with the kernel's own include guard, as
 * the system's UAPI <linux/wait.h> has too. */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <linux/list.h>
#include <linux/spinlock.h>

struct wait_queue_head {
	spinlock_t		lock;
	struct list_head	head;
};
typedef struct wait_queue_head wait_queue_head_t;

static inline void init_waitqueue_head(wait_queue_head_t *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

#define wait_event(wq, cond)	do { while (!(cond)) ; } while (0)

#endif
