/* SPDX-License-Identifier: MIT */
/*
 * kmutex/list.h - the wait-list head embedded in kmutex's locks.
 *
 * kmutex has its own tiny list type instead of the kernel's struct
 * list_head so that its headers can be used beside a project's own
 * <linux/list.h>.  Only the type and its static initialiser are public;
 * the list operations are private to the library (src/list.h).
 */
#ifndef _KMUTEX_LIST_H
#define _KMUTEX_LIST_H

#include <kmutex/compiler.h>

__KMUTEX_BEGIN_DECLS

struct kmutex_list {
	struct kmutex_list *next;
	struct kmutex_list *prev;
};

/* An empty list points at itself. */
#define KMUTEX_LIST_INIT(head)	{ &(head), &(head) }

static inline void __kmutex_list_init(struct kmutex_list *head)
{
	head->next = head;
	head->prev = head;
}

__KMUTEX_END_DECLS

#endif /* _KMUTEX_LIST_H */
