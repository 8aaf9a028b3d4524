#include <linux/mutex.h>
#include <pthread.h>
#include <stdio.h>

static DEFINE_MUTEX(lock);
static long counter;

static void *work(void *arg)
{
	for (int i = 0; i < 1000000; i++) {
		guard(mutex)(&lock);		/* released at the end of the scope */
		counter++;
	}
	return arg;
}

int main(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", counter);	/* 4000000 */
	return 0;
}
