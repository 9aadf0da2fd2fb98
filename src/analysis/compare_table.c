/* difftable — the viewer's before/after table; see compare_table.h. */
#include "config.h"

#include "analysis/compare_table.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "base/xalloc.h"

/*
 * *w = a over [s, e): a's device index, steps and layers (borrowed: w must
 * not be freed) with the window and its metrics that analysis_build() would
 * give for WINDOW_ABSOLUTE [s, e).  Only what compare_build() reads is set.
 */
static void
rewindow(struct analysis *w, const struct analysis *a, int64_t s, int64_t e)
{
	*w = *a;
	memset(&w->m, 0, sizeof w->m);
	w->ntop = 0;
	w->has_window = a->device >= 0 && e > s;
	w->start_ns = s;
	w->end_ns = e;
	if (w->has_window)
		metrics_window(&w->dev, s, e, &w->m);
}

static void
push(struct compare_table *t, enum compare_table_kind kind, size_t index)
{
	t->rows = xreallocarray(t->rows, t->nrows + 1, sizeof *t->rows);
	t->rows[t->nrows].kind = kind;
	t->rows[t->nrows].index = index;
	t->nrows++;
}

static void
section(struct compare_table *t, enum compare_table_kind head, enum compare_table_kind item,
    size_t n)
{
	push(t, head, 0);
	for (size_t i = 0; i < n; i++)
		push(t, item, i);
	if (n == 0)
		push(t, CT_EMPTY, (size_t)head);
}

/* t's windows and its diff, with no rows yet. */
static void
diff(struct compare_table *t, const struct analysis *a, int64_t a0_ns, int64_t a1_ns,
    const struct analysis *b, int64_t b0_ns, int64_t b1_ns, enum compare_pairing pairing)
{
	struct analysis wa, wb;

	memset(t, 0, sizeof *t);
	t->a0_ns = a0_ns;
	t->a1_ns = a1_ns;
	t->b0_ns = b0_ns;
	t->b1_ns = b1_ns;
	rewindow(&wa, a, a0_ns, a1_ns);
	rewindow(&wb, b, b0_ns, b1_ns);
	compare_build(&t->d, &wa, &wb, pairing);
}

/* The rows of t's three sections. */
static void
sections(struct compare_table *t)
{
	section(t, CT_HEAD_STEPS, CT_STEP, t->d.nsteps);
	section(t, CT_HEAD_LAYERS, CT_LAYER, t->d.nlayers);
	section(t, CT_HEAD_KERNELS, CT_KERNEL, t->d.nkernels);
}

void
compare_table_build(struct compare_table *t, const struct analysis *a, int64_t a0_ns,
    int64_t a1_ns, const struct analysis *b, int64_t b0_ns, int64_t b1_ns,
    enum compare_pairing pairing)
{
	diff(t, a, a0_ns, a1_ns, b, b0_ns, b1_ns, pairing);
	sections(t);
}

void
compare_table_build_steps(struct compare_table *t, const struct analysis *a,
    const struct step *sa, const struct analysis *b, const struct step *sb)
{
	diff(t, a, sa->has_gpu ? sa->gpu_start_ns : 0, sa->has_gpu ? sa->gpu_end_ns : 0,
	    b, sb->has_gpu ? sb->gpu_start_ns : 0, sb->has_gpu ? sb->gpu_end_ns : 0,
	    COMPARE_BY_POSITION);
	compare_keep_step(&t->d, sa->number, sb->number);
	sections(t);
}

void
compare_table_free(struct compare_table *t)
{
	if (t == NULL)
		return;
	compare_free(&t->d);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

size_t
compare_table_section(const struct compare_table *t, enum compare_table_kind kind)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].kind == kind)
			return i;
	return t->nrows;
}
