/*
 * steps — training steps (ProfilerStep#N) of one (rank, device), their GPU
 * extents, and which of them are outliers.
 *
 * A step is a CPU annotation (any CPU track, any category) named
 * "ProfilerStep#N".  Its CPU span is the annotation's [ts, ts + dur).  Its
 * GPU extent on the device runs from the first start to the last end of the
 * device's activity launched inside the CPU span: the activity's launch call
 * (event.link) starts in [span start, span end), on any CPU thread.  Only
 * when no activity of the device is linked at all, the extent is made of the
 * activity that starts in [step start, next step start), the last step
 * open-ended.  A step with no such activity has no GPU extent.
 *
 * Outliers (slow side only), over the steps' CPU durations t, with at least
 * STEPS_MIN_FOR_OUTLIERS steps: z = (t - median) / (1.4826 * MAD) and an
 * outlier has z > 3.5 and t > 1.1 * median; when MAD is 0,
 * z = (t - median) / (1.2533 * mean |t - mean|) (and no outliers when that
 * is 0 too).
 *
 * Steps are listed by CPU start.  O(n log s) for n activities, s steps.
 */
#ifndef GANTTY_STEPS_H
#define GANTTY_STEPS_H

#include <stddef.h>
#include <stdint.h>

struct metrics;
struct trace;

#define STEPS_MIN_FOR_OUTLIERS 5

struct step {
	uint32_t event;         /* the ProfilerStep#N annotation */
	int64_t number;         /* N */
	int64_t start_ns, end_ns;       /* CPU span */
	int64_t gpu_start_ns, gpu_end_ns; /* GPU extent; both 0 and has_gpu = 0 if
	                                   none; cut at the next step's start:
	                                   steps' extents never overlap */
	int has_gpu;
	double z;               /* robust z-score of the CPU duration (0 if < 5 steps) */
	int outlier;
	int incomplete;         /* the last step of a trace cut short
	                           (trace_events_lost()): its end may be missing,
	                           so it is never an outlier, z 0, and the
	                           others' outliers are found without it */
};

/*
 * Finds the steps of d's trace with their GPU extents on d's device and
 * outlier flags.  Returns their number and a malloc'd array in *out (NULL if
 * none).  Cannot fail.
 */
size_t steps_find(const struct metrics *d, struct step **out);
/*
 * The numbers N of t's steps (its ProfilerStep#N annotations, whatever the
 * device, GPU activity or none), ascending, each once, in a malloc'd *out
 * (NULL if none).  Returns how many.  Cannot fail.  O(names + s log s).
 */
size_t steps_numbers(const struct trace *t, int64_t **out);
/*
 * Sets z and outlier of s[0..n) from their CPU durations by the rule above.
 * O(n log n).
 */
void steps_outliers(struct step *s, size_t n);
/*
 * The median step of s[0..n): the step whose CPU duration is the n/2-th
 * smallest (from 0: the upper middle for an even n; ties: the first in s).
 * The one "median step" every display compares with (the step strip, the
 * outlier finding, the selected step's explanation); the z-score keeps
 * the statistical median of the rule above.  -1 for n == 0.  O(n log n).
 */
long steps_median(const struct step *s, size_t n);
/*
 * Returns the index of the step whose CPU span contains ts_ns (the latest
 * starting one if spans overlap), or -1.  s sorted by start.  O(log n):
 * only the latest step starting at or before ts_ns is looked at, so where
 * spans overlap, an earlier, longer step holding ts_ns after that one ended
 * is not found (real traces' steps do not overlap).
 */
long steps_at(const struct step *s, size_t n, int64_t ts_ns);

#endif
