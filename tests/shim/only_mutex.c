// SPDX-License-Identifier: MIT
/*
 * only_mutex.c - kernel code relies on what the kernel's <linux/mutex.h>
 * brings in: six.h uses raw_spinlock_t and kthread.h struct list_head
 * after including only <linux/mutex.h>.  Built by tests/headers_shims.sh
 * with a project's shim tree on the include path (tests/shim, or
 * tests/shim-nowait, which has no wait.h: then <linux/completion.h> must
 * leave <sys/wait.h> working although the system's UAPI <linux/wait.h>
 * is found).
 */
#include <linux/mutex.h>
#ifdef WITH_COMPLETION
#include <linux/completion.h>
#include <sys/wait.h>
#endif
#include <stdio.h>

struct kthread_like {
	struct list_head node;		/* from the project's <linux/list.h> */
	raw_spinlock_t lock;		/* from its <linux/spinlock.h> */
	struct mutex m;
};

int main(void)
{
	struct kthread_like k;

	INIT_LIST_HEAD(&k.node);
	raw_spin_lock_init(&k.lock);
	mutex_init(&k.m);
	mutex_lock(&k.m);
	raw_spin_lock(&k.lock);
	raw_spin_unlock(&k.lock);
	mutex_unlock(&k.m);
#ifdef WITH_COMPLETION
	{
		struct completion c;
		idtype_t t = P_PID;	/* <sys/wait.h>'s enum, intact */

		init_completion(&c);
		complete(&c);
		wait_for_completion(&c);
		if (t != P_PID)
			return 1;
	}
#endif
	if (!list_empty(&k.node))
		return 1;
	printf("only <linux/mutex.h>: list_head and raw_spinlock_t came with it\n");
	return 0;
}
