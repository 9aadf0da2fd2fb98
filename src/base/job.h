/*
 * job — a function run by a second thread while the caller goes on, or by
 * the caller itself, at the join, when no thread can be started.
 *
 * The analysis runs its independent parts at once this way (analysis.c,
 * layers.c, report_diag.c); they share only what they read.
 */
#ifndef GANTTY_JOB_H
#define GANTTY_JOB_H

#include <pthread.h>

struct job {
	pthread_t th;
	int threaded;           /* 0: fn runs in job_join() */
	void *(*fn)(void *);
	void *arg;
};

/*
 * pthread_create() for every thread gantty starts: the new thread blocks the
 * signals that are meant for the process (SIGWINCH, SIGINT, SIGTERM, SIGHUP,
 * ...), so that the kernel delivers them to the main thread, whose blocking
 * read of the keyboard they must interrupt (tui.c).  Returns 0 or an errno.
 */
int job_thread(pthread_t *th, void *(*fn)(void *), void *arg);
/* Starts fn(arg) on a thread of its own, if one can be created. */
void job_start(struct job *j, void *(*fn)(void *), void *arg);
/* Waits for fn(arg) to have run (running it now if no thread started). */
void job_join(struct job *j);

#endif
