/* SPDX-License-Identifier: MIT */
/*
 * list.h - operations on struct kmutex_list (the type is public, in
 * include/kmutex/list.h; the operations are the library's own).
 * Callers hold the owning lock's wait_lock.
 */
#ifndef _KMUTEX_SRC_LIST_H
#define _KMUTEX_SRC_LIST_H

#include <stddef.h>
#include <kmutex/list.h>
#include "valgrind.h"

static inline int list_empty(const struct kmutex_list *head)
{
	return head->next == head;
}

/* Every node queued is a waiter's (struct kmutex_waiter, src/waiter.h). */
static inline void list_add_tail(struct kmutex_list *node,
				 struct kmutex_list *head)
{
	vg_hook(vg_ignore_head(head));
	node->prev = head->prev;
	node->next = head;
	head->prev->next = node;
	head->prev = node;
}

static inline void list_del(struct kmutex_list *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->next = node->prev = NULL;
}

#define list_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define list_first_entry_or_null(head, type, member) \
	(list_empty(head) ? NULL : list_entry((head)->next, type, member))

#endif /* _KMUTEX_SRC_LIST_H */
