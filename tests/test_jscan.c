/* jscan: decoding one event, and declining what json-c must decide. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "load/jscan.h"

static struct jscan js;

static void
setup(void)
{
	jscan_init(&js);
}

static void
teardown(void)
{
	jscan_free(&js);
}

TestSuite(jscan, .init = setup, .fini = teardown);

/* Scans text; returns the status, and checks that OK consumed it all. */
static int
scan(const char *text)
{
	size_t used = 0, len = strlen(text);
	int r = jscan_event(&js, text, len, &used);

	if (r == JSCAN_OK)
		cr_assert_eq(used, len, "used %zu of %zu", used, len);
	return r;
}

Test(jscan, fields_of_a_kernel)
{
	cr_assert_eq(scan("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
	    "\"pid\": 0, \"tid\": 7, \"ts\": 1692998837419.987, \"dur\": 25, "
	    "\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 2738, "
	    "\"External id\": 111, \"grid\": [1056, 1, 1], \"est\": 0.5}}"), JSCAN_OK);
	cr_assert_eq(js.f[JF_PH].type, JV_STRING);
	cr_assert_str_eq(js.f[JF_PH].s, "X");
	cr_assert_str_eq(js.f[JF_CAT].s, "kernel");
	cr_assert_eq(js.f[JF_TID].type, JV_INT);
	cr_assert_eq(js.f[JF_TID].i, 7);
	/* a timestamp stays text: a double cannot hold it */
	cr_assert_eq(js.f[JF_TS].type, JV_DOUBLE);
	cr_assert_eq(js.f[JF_TS].len, 17);
	cr_assert(memcmp(js.f[JF_TS].s, "1692998837419.987", 17) == 0);
	cr_assert_eq(js.f[JF_DUR].i, 25);
	cr_assert_eq(js.f[JF_ARGS].type, JV_OBJECT);
	cr_assert_eq(js.f[JA_CORRELATION].i, 2738);
	cr_assert_eq(js.f[JA_EXTERNAL_ID].i, 111);
	cr_assert_eq(js.f[JA_EXTERNAL_ID_LC].type, JV_ABSENT);
	cr_assert_eq(js.f[JF_BP].type, JV_ABSENT);
}

Test(jscan, escapes_and_surrogate_pairs_decode_to_utf8)
{
	cr_assert_eq(scan("{\"name\": \"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\u20ac\\ud83d\\ude00\"}"),
	    JSCAN_OK);
	cr_assert_str_eq(js.f[JF_NAME].s, "a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	cr_assert_eq(js.f[JF_NAME].len, strlen(js.f[JF_NAME].s));
	/* upper-case hex too */
	cr_assert_eq(scan("{\"cat\": \"\\u00C9\"}"), JSCAN_OK);
	cr_assert_str_eq(js.f[JF_CAT].s, "\xc3\x89");
}

Test(jscan, what_json_c_must_decide_falls_back)
{
	static const char *const cases[] = {
		"{\"name\": \"\\ud83d\"}",              /* lone high surrogate */
		"{\"name\": \"\\ude00x\"}",             /* lone low surrogate */
		"{\"name\": \"\\ud83d\\u0041\"}",       /* high then not low */
		"{\"name\": \"a\\u0000b\"}",            /* NUL */
		"{\"name\": \"a\\xb\"}",                /* unknown escape */
		"{\"name\": \"a\tb\"}",                 /* raw control character */
		"{\"ts\": 1, \"ts\": 2}",               /* duplicate known key */
		"{\"n\\u0061me\": \"x\"}",              /* escaped key */
		"{\"pid\": 12345678901234567890}",      /* beyond int64 */
		"{\"args\": {\"x\": 1234567890123456789}}", /* counted by json-c */
		"{\"ts\": 01}",                         /* leading zero */
		"{\"ts\": 1.}",
		"{\"ts\": .5}",
		"{\"ts\": +1}",
		"{\"ts\": NaN}",
		"{\"ts\": 1,}",                         /* trailing comma */
		"{\"a\": [1,]}",
		"{\"a\": tru}",
		"{'a': 1}",
		"{\"a\" 1}",
		"[1]",                                  /* not an object */
		"{\"a\": /* comment */ 1}",
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		cr_assert_eq(scan(cases[i]), JSCAN_FALLBACK, "%s", cases[i]);
}

Test(jscan, numbers)
{
	cr_assert_eq(scan("{\"pid\": -42, \"tid\": 0, \"ts\": -1.5e-3, \"dur\": 1E+2, "
	    "\"id\": 123456789012345678}"), JSCAN_OK);
	cr_assert_eq(js.f[JF_PID].type, JV_INT);
	cr_assert_eq(js.f[JF_PID].i, -42);
	cr_assert_eq(js.f[JF_TID].i, 0);
	cr_assert_eq(js.f[JF_TS].type, JV_DOUBLE);
	cr_assert(memcmp(js.f[JF_TS].s, "-1.5e-3", 7) == 0);
	cr_assert_eq(js.f[JF_DUR].type, JV_DOUBLE);
	cr_assert_eq(js.f[JF_ID].i, 123456789012345678);
	/* a big integer nested deeper is json-c's to keep, not to count */
	cr_assert_eq(scan("{\"args\": {\"x\": [12345678901234567890]}}"), JSCAN_OK);
}

Test(jscan, nested_values_are_validated_and_skipped)
{
	cr_assert_eq(scan("{\"name\": \"n\", \"args\": {\"a\": {\"name\": \"inner\", "
	    "\"b\": [1, {\"c\": null}, true, false, \"}\"]}, \"device\": 3}, "
	    "\"x\": {\"ts\": 9}}"), JSCAN_OK);
	cr_assert_str_eq(js.f[JF_NAME].s, "n");
	cr_assert_eq(js.f[JA_DEVICE].i, 3);
	cr_assert_eq(js.f[JF_TS].type, JV_ABSENT, "a nested ts is not the event's");
	/* args keys count only inside args */
	cr_assert_eq(scan("{\"device\": 5}"), JSCAN_OK);
	cr_assert_eq(js.f[JA_DEVICE].type, JV_ABSENT);
	/* args that is not an object */
	cr_assert_eq(scan("{\"args\": [1, 2]}"), JSCAN_OK);
	cr_assert_eq(js.f[JF_ARGS].type, JV_ARRAY);
}

Test(jscan, too_deep_falls_back)
{
	char text[256] = "{\"a\": ";
	int n = JSCAN_MAX_DEPTH + 2;

	for (int i = 0; i < n; i++)
		strcat(text, "[");
	for (int i = 0; i < n; i++)
		strcat(text, "]");
	strcat(text, "}");
	cr_assert_eq(scan(text), JSCAN_FALLBACK);
}

/*
 * Cut anywhere (a buffer boundary), an event asks for more, never decodes
 * short or declines: braces and escaped quotes inside strings included.
 */
Test(jscan, every_prefix_asks_for_more)
{
	const char *ev = "{\"ph\": \"X\", \"name\": \"f({[\\\"}]\\\\\", \"pid\": 1, "
	    "\"ts\": 12.5, \"dur\": 3, \"args\": {\"s\": \"}}\\\"{\", \"e\": "
	    "\"\\ud83d\\ude00\", \"device\": -1, \"v\": [true, false, null]}}";
	size_t len = strlen(ev), used;

	for (size_t cut = 0; cut < len; cut++)
		cr_assert_eq(jscan_event(&js, ev, cut, &used), JSCAN_MORE, "cut at %zu", cut);
	cr_assert_eq(jscan_event(&js, ev, len, &used), JSCAN_OK);
	cr_assert_eq(used, len);
	cr_assert_str_eq(js.f[JF_NAME].s, "f({[\"}]\\");
	cr_assert_eq(js.f[JA_DEVICE].i, -1);
	/* what follows the event is not looked at */
	char buf[512];
	snprintf(buf, sizeof buf, "%s, {\"garbage", ev);
	cr_assert_eq(jscan_event(&js, buf, strlen(buf), &used), JSCAN_OK);
	cr_assert_eq(used, len);
}
