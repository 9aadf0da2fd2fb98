#include "config.h"

#include <signal.h>

#include "base/job.h"

int
job_thread(pthread_t *th, void *(*fn)(void *), void *arg)
{
	/* the faults stay with the thread that raises them */
	static const int own[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
	    SIGTRAP, SIGSYS, SIGPIPE };
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		sigdelset(&all, own[i]);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void
job_start(struct job *j, void *(*fn)(void *), void *arg)
{
	j->fn = fn;
	j->arg = arg;
	j->threaded = job_thread(&j->th, fn, arg) == 0;
}

void
job_join(struct job *j)
{
	if (j->threaded)
		pthread_join(j->th, NULL);
	else
		j->fn(j->arg);
	j->threaded = 0;
}
