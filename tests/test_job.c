/*
 * Threads and jobs (base/job.h): a job runs once, threaded or not, and a
 * thread gantty starts leaves the process's signals to the main thread.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>

#include "base/job.h"

static void *
mask_of(void *arg)
{
	pthread_sigmask(SIG_BLOCK, NULL, (sigset_t *)arg);
	return NULL;
}

Test(job, thread_blocks_the_process_signals)
{
	sigset_t in_thread, here;
	pthread_t th;

	sigemptyset(&in_thread);
	cr_assert_eq(job_thread(&th, mask_of, &in_thread), 0);
	pthread_join(th, NULL);
	/* what the viewer's blocking read waits to be interrupted by */
	cr_expect(sigismember(&in_thread, SIGWINCH));
	cr_expect(sigismember(&in_thread, SIGINT));
	cr_expect(sigismember(&in_thread, SIGTERM));
	cr_expect(sigismember(&in_thread, SIGHUP));
	/* faults stay the thread's own */
	cr_expect(!sigismember(&in_thread, SIGSEGV));
	cr_expect(!sigismember(&in_thread, SIGBUS));
	/* and the caller's mask is as it was */
	pthread_sigmask(SIG_BLOCK, NULL, &here);
	cr_expect(!sigismember(&here, SIGWINCH));
}

static void *
count(void *arg)
{
	++*(int *)arg;
	return NULL;
}

Test(job, runs_once)
{
	struct job j;
	int n = 0;

	job_start(&j, count, &n);
	job_join(&j);
	cr_expect_eq(n, 1);
}
