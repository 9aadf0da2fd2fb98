#include "config.h"

#include "load/input.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "model/trace.h"
#include "base/xalloc.h"

static void
push(struct input_list *l, const char *path, int from_dir)
{
	xgrow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n].path = xstrdup(path);
	l->v[l->n].from_dir = from_dir;
	l->n++;
}

int
input_namecmp(const char *a, const char *b)
{
	while (*a != '\0' && *b != '\0') {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a == *b ? 0 : *a == '\0' ? -1 : 1;
}

static int
cmp_names(const void *pa, const void *pb)
{
	return input_namecmp(*(char *const *)pa, *(char *const *)pb);
}

static int
is_trace_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return 0;
	return (n > 5 && strcmp(name + n - 5, ".json") == 0) ||
	    (n > 8 && strcmp(name + n - 8, ".json.gz") == 0);
}

static int
expand_dir(struct input_list *l, const char *dir, char *err, size_t errsize)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!is_trace_name(de->d_name))
			continue;
		xgrow(&names, &cap, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n == 0) {
		snprintf(err, errsize, "%s: no *.json or *.json.gz traces in this directory",
		    dir);
		free(names);
		return -1;
	}
	qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(dir);
		char *p = xmalloc(len + strlen(names[i]) + 2);

		sprintf(p, "%s%s%s", dir, len > 0 && dir[len - 1] == '/' ? "" : "/",
		    names[i]);
		push(l, p, 1);
		free(p);
		free(names[i]);
	}
	free(names);
	return 0;
}

/*
 * A stream (standard input, a FIFO, a terminal) can be read once: named
 * twice, two loading threads would share its bytes.  Returns -1 with a
 * message when one is, else 0.  O(n^2) over the streams, which are few.
 */
static int
check_streams_once(const struct input_list *l, char *err, size_t errsize)
{
	for (size_t i = 0; i < l->n; i++) {
		struct stat a, b;
		int stdin_a = strcmp(l->v[i].path, "-") == 0;

		if (!stdin_a && (stat(l->v[i].path, &a) != 0 || S_ISREG(a.st_mode) ||
		    S_ISDIR(a.st_mode)))
			continue;
		for (size_t j = i + 1; j < l->n; j++) {
			int stdin_b = strcmp(l->v[j].path, "-") == 0;

			if (stdin_a ? stdin_b : !stdin_b &&
			    stat(l->v[j].path, &b) == 0 && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino) {
				snprintf(err, errsize, "%s given twice: a stream "
				    "(standard input, a pipe) can be read only once",
				    stdin_a ? "- (standard input)" : l->v[j].path);
				return -1;
			}
		}
	}
	return 0;
}

int
input_expand(struct input_list *l, char *const *args, size_t nargs, char *err,
    size_t errsize)
{
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;

		if (strcmp(args[i], "-") != 0 && stat(args[i], &st) == 0 &&
		    S_ISDIR(st.st_mode)) {
			if (expand_dir(l, args[i], err, errsize) < 0)
				return -1;
		} else {
			push(l, args[i], 0);
		}
	}
	return check_streams_once(l, err, errsize);
}

void
input_free(struct input_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].path);
	free(l->v);
	memset(l, 0, sizeof *l);
}

int64_t
input_rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	static const char *const words[] = { "rank", "worker" };

	base = base ? base + 1 : path;
	for (const char *p = base; *p != '\0'; p++) {
		for (size_t w = 0; w < 2; w++) {
			size_t len = strlen(words[w]);
			const char *q;
			int64_t n = 0;

			if (strncasecmp(p, words[w], len) != 0)
				continue;
			for (q = p + len; *q != '\0' && !isdigit((unsigned char)*q); q++)
				;
			if (*q == '\0')
				continue;
			for (; isdigit((unsigned char)*q); q++)
				if ((n = n * 10 + (*q - '0')) > TRACE_RANK_MAX)
					return -2;
			return n;
		}
	}
	return -1;
}

void
input_assign_rank(struct trace *t, size_t position)
{
	int64_t r;

	if (t->dist_rank >= 0) {
		t->rank = t->dist_rank;
		t->rank_source = "distributedInfo";
	} else if ((r = input_rank_from_name(t->path)) >= 0) {
		t->rank = r;
		t->rank_source = "file name";
	} else {
		if (r == -2)
			t->warn.bad_rank++;
		t->rank = (int64_t)position;
		t->rank_source = "position";
	}
}
