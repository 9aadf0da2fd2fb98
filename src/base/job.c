#include "config.h"

#include "base/job.h"

void
job_start(struct job *j, void *(*fn)(void *), void *arg)
{
	j->fn = fn;
	j->arg = arg;
	j->threaded = pthread_create(&j->th, NULL, fn, arg) == 0;
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
