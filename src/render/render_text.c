/*
 * render_text — text in the grid: glyph-aware strings, clipped writes,
 * compact numbers and names, the pen; see render_int.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "model/trace.h"
#include "render/grid.h"
#include "render/render_int.h"
#include "view/view.h"

/* ---- text -------------------------------------------------------------- */

/* ASCII stand-ins for the few non-ASCII symbols gantty's own texts use. */
static const struct {
	const char *utf8, *ascii;
} translit[] = {
	{ "\xe2\x86\x90", "<-" }, { "\xe2\x86\x92", "->" },     /* ← → */
	{ "\xe2\x86\x91", "^" }, { "\xe2\x86\x93", "v" },       /* ↑ ↓ */
	{ "\xe2\x80\xa6", "~" }, { "\xe2\x89\xa5", ">=" },      /* … ≥ */
	{ "\xc2\xb7", "." }, { "\xe2\x94\x80", "-" },           /* · ─ */
	{ "\xe2\x94\x82", "|" }, { "\xc3\x97", "x" },           /* │ × */
	{ "\xe2\x96\xb6", ">" }, { "\xe2\x80\x94", "-" },       /* ▶ — */
	{ "\xe2\x96\x91", "_" }, { "\xe2\x96\x80", "!" },       /* ░ ▀ */
	{ "\xe2\x96\x93", "~" }, { "\xe2\x96\x88", "=" },       /* ▓ █ */
};

/* Copies s to buf (size n), with ASCII stand-ins when ascii is set. */
const char *
render_text_for(int ascii, const char *s, char *buf, size_t n)
{
	size_t o = 0;

	if (!ascii)
		return s;
	while (*s != '\0' && o + 1 < n) {
		size_t k, m = sizeof translit / sizeof translit[0];

		for (k = 0; k < m; k++) {
			size_t l = strlen(translit[k].utf8);

			if (strncmp(s, translit[k].utf8, l) == 0) {
				size_t al = strlen(translit[k].ascii);

				if (o + al + 1 > n)
					goto done;
				memcpy(buf + o, translit[k].ascii, al);
				o += al;
				s += l;
				break;
			}
		}
		if (k == m)
			buf[o++] = *s++;
	}
done:
	buf[o] = '\0';
	return buf;
}

/* 1 if s contains needle, ignoring ASCII case. */
/* The number of code points of s: its width, for gantty's texts. */
int
render_text_cols(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Writes s at (x, y), at most maxw columns; returns the columns written. */
int
render_put_text(struct rctx *c, int x, int y, int maxw, enum role role, const char *s)
{
	char buf[1024];

	if (maxw == 0)
		return 0;
	return grid_print(c->g, x, y, maxw, role, c->ascii,
	    render_text_for(c->ascii, s, buf, sizeof buf));
}

/*
 * Writes s at (x, y) in at most maxw columns, cut with an ellipsis when
 * longer.  Returns the columns written.
 */
int
render_put_fit(struct rctx *c, int x, int y, int maxw, enum role role, const char *s)
{
	char buf[1024];
	const char *t = render_text_for(c->ascii, s, buf, sizeof buf);
	int n;

	if (maxw <= 0)
		return 0;
	if (render_text_cols(t) <= maxw)
		return grid_print(c->g, x, y, maxw, role, c->ascii, t);
	n = grid_print(c->g, x, y, maxw - 1, role, c->ascii, t);
	grid_put(c->g, x + n, y, c->gl->ellipsis, role);
	return n + 1;
}

size_t
render_scroll_top(size_t row, size_t top, size_t vis, size_t n)
{
	if (row < top)
		top = row;
	if (vis > 0 && row >= top + vis)
		top = row - vis + 1;
	if (top + vis > n)
		top = n > vis ? n - vis : 0;
	return top;
}

/* A short duration: units_format() without the space ("12.5ms"). */
char *
render_fmt_compact(char *buf, size_t n, int64_t ns)
{
	char *sp;

	units_format(buf, n, ns);
	if ((sp = strchr(buf, ' ')) != NULL)
		memmove(sp, sp + 1, strlen(sp));
	return buf;
}

/* A position relative to t0: "+12.5 ms". */
char *
render_fmt_rel(char *buf, size_t n, const struct view *v, int64_t ts_ns)
{
	char d[32];
	int64_t rel = ts_ns - v->t0_ns;

	units_format(d, sizeof d, rel < 0 ? -rel : rel);
	snprintf(buf, n, "%s%s", rel < 0 ? "-" : "+", d);
	return buf;
}

double
render_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

void
render_pen_put(struct pen *p, enum role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (p->x >= p->x1)
		return;
	p->x += render_put_text(p->c, p->x, p->y, p->x1 - p->x, role, buf);
}

/* Writes a duration in role. */
void
render_pen_dur(struct pen *p, enum role role, int64_t ns)
{
	char d[48];

	render_pen_put(p, role, "%s", units_format(d, sizeof d, ns));
}

/*
 * A display name for a GPU kernel: without "void ", template arguments and
 * the parameter list, and without namespaces, so that a lane shows
 * "vectorized_elementwise_kernel" for
 * "void at::native::vectorized_elementwise_kernel<4, ...>(int, ...)".
 */
static const char *
short_kernel_name(const char *name, char *buf, size_t n)
{
	const char *s = name, *e, *ns, *anon = "(anonymous namespace)::";
	char tmp[256];
	size_t len = 0, al = strlen(anon);

	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	/* without "(anonymous namespace)::", whose '(' would end the name */
	while (*s != '\0' && len + 1 < sizeof tmp) {
		if (strncmp(s, anon, al) == 0)
			s += al;
		else
			tmp[len++] = *s++;
	}
	tmp[len] = '\0';
	s = tmp;
	for (e = s; *e != '\0' && *e != '(' && *e != '<'; e++)
		;
	for (ns = s; ns + 2 < e; ns++)
		if (ns[0] == ':' && ns[1] == ':')
			s = ns + 2;
	/* the lane says nccl already: "AllGather_RING_LL" is the news */
	if (strncmp(s, "ncclDevKernel_", 14) == 0 && s + 14 < e)
		s += 14;
	else if (strncmp(s, "ncclKernel_", 11) == 0 && s + 11 < e)
		s += 11;
	while (e > s && e[-1] == ' ')
		e--;
	if (e == s || (size_t)(e - s) + 1 > n)
		return name;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return buf;
}

/*
 * The name to show for event e: kernels shortened, everything else whole;
 * a generic communication kernel (NCCL's ncclDevKernel_Generic, which runs
 * whatever collective its arguments say) by its collective's name.
 */
const char *
render_display_name(const struct trace *t, const struct event *e, char *buf, size_t n)
{
	const char *name = trace_str(t, e->name);
	struct event_args a_buf;
	const struct event_args *a;

	if (!event_is_activity(e) || e->cls == CLASS_MEMORY)
		return name;
	name = short_kernel_name(name, buf, n);
	if (e->cls == CLASS_COMM && strncmp(name, "Generic", 7) == 0 &&
	    (a = trace_args(t, e, &a_buf)) != NULL && a->comm != EV_NONE &&
	    t->comms[a->comm].collective != 0)
		return trace_str(t, t->comms[a->comm].collective);
	return name;
}

/* A track's name without the trailing blanks Kineto sometimes leaves. */
const char *
render_track_name(const struct trace *t, const struct track *tr, char *buf, size_t n)
{
	size_t len;

	snprintf(buf, n, "%s", trace_str(t, tr->name));
	len = strlen(buf);
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
	return buf;
}

/*
 * A kernel name for the panel: without "void ", "at::native::",
 * "(anonymous namespace)::" and the parameter list, templates kept.
 */
const char *
render_medium_kernel_name(const char *name, char *buf, size_t n)
{
	static const char *const drop[] = {
		"(anonymous namespace)::", "at::native::",
	};
	const char *s = name;
	size_t len = 0;
	int depth = 0;

	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	while (*s != '\0' && len + 1 < n) {
		size_t k;

		for (k = 0; k < sizeof drop / sizeof drop[0]; k++)
			if (strncmp(s, drop[k], strlen(drop[k])) == 0)
				break;
		if (k < sizeof drop / sizeof drop[0]) {
			s += strlen(drop[k]);
			continue;
		}
		buf[len++] = *s++;
	}
	buf[len] = '\0';
	/* cut a trailing parameter list "(...)" */
	if (len > 0 && buf[len - 1] == ')') {
		for (size_t i = len; i-- > 0;) {
			if (buf[i] == ')')
				depth++;
			else if (buf[i] == '(' && --depth == 0) {
				/* "f<T>(int)", not "Memcpy DtoH (Device -> Pinned)" */
				if (i > 0 && buf[i - 1] != ' ')
					buf[i] = '\0';
				break;
			}
		}
	}
	return buf;
}

/* The thread part of a CPU track name: "python3" of "thread 12 (python3)". */
const char *
render_thread_label(const char *name, char *buf, size_t n)
{
	const char *open = strchr(name, '('), *close;
	size_t len;

	if (open == NULL || (close = strrchr(open, ')')) == NULL || close == open + 1)
		return name;
	len = (size_t)(close - open - 1);
	if (len + 1 > n)
		len = n - 1;
	memcpy(buf, open + 1, len);
	buf[len] = '\0';
	return buf;
}
