/*
 * input — which files to load, and which rank each one is.
 *
 * Command-line arguments are files, "-" (standard input) or directories; a
 * directory stands for every *.json and *.json.gz file directly in it, in
 * name order (numbers in names compare by value, so rank-10 follows rank-9).
 * The list owns its path strings.
 */
#ifndef GANTTY_INPUT_H
#define GANTTY_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct trace;

struct input {
	char *path;
	int from_dir;           /* found by expanding a directory */
};

struct input_list {
	struct input *v;
	size_t n, cap;
};

/*
 * Expands args[0..nargs) into l (appended).  Returns 0, or -1 with a message
 * in err (size errsize) for an unreadable directory or one with no traces,
 * or for a stream (- for standard input, a FIFO) named twice.
 */
int input_expand(struct input_list *l, char *const *args, size_t nargs,
    char *err, size_t errsize);
/* Frees the list's paths and array. */
void input_free(struct input_list *l);
/*
 * Returns the first integer after "rank" or "worker" (case-insensitive) in
 * the file name of path (not its directories), or -1 if there is none, -2
 * when it is beyond TRACE_RANK_MAX.
 */
int64_t input_rank_from_name(const char *path);
/*
 * Sets t->rank and t->rank_source: distributedInfo.rank, else the number in
 * the file name, else position (the file's index in the sorted list).  A
 * rank in the name beyond TRACE_RANK_MAX is counted (bad_rank) and ignored.
 */
void input_assign_rank(struct trace *t, size_t position);
/* Compares two names with embedded numbers by value ("a2" < "a10"). */
int input_namecmp(const char *a, const char *b);

#endif
